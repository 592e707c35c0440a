/** One `session_search` call: pick the mode, run the core call, add the sync state, bound the reply. */

import { ompMetadata } from "../agents/omp/node/metadata-files.js";
import {
	boundedJson,
	browseReply,
	DEFAULTS,
	discover,
	inSessionReply,
	isSessionPath,
	LookbackError,
	loadRedaction,
	mebibytes,
	oversizeError,
	type Reply,
	readWhole,
	redactedReply,
	redactsByDefault,
	type SearchRequest,
	type SyncState,
	scroll,
	storeAction,
} from "../core/index.js";
import { loadEngine } from "../node/engine.js";
import type { LocalIndex } from "../node/indexer-work.js";
import type { NodeIndex } from "../node/open.js";
import { sessionPathInRoots } from "../node/paths.js";
import { type Mode, modeOf, searchRequest } from "./modes.js";
import type { SessionSearchParams } from "./params.js";
import { summaryLines } from "./summary-lines.js";
import type { ToolReply } from "./tool-reply.js";

export interface ToolDetails {
	mode: Mode;
	query?: string;
	lines: string[];
	truncated: boolean;
}

export interface ToolRun {
	text: string;
	details: ToolDetails;
}

/** A session reference checked against the roots: a path must be a .jsonl inside them; an id not indexed may be an oversized file. */
async function sessionRef(host: LocalIndex, ref: string): Promise<{ opened: NodeIndex; ref: string }> {
	let opened = await host.open();
	const path = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : undefined;
	const tooLarge = path ? oversizeError(path, opened.files) : undefined;
	if (tooLarge) throw new LookbackError("file-too-large", tooLarge);
	const target = path ?? ref;
	try {
		opened.index.session(target);
		return { opened, ref: target };
	} catch {
		// Not indexed yet: bring the index up to date (when that is little work) and look again.
		opened = (await host.fresh()).opened;
	}
	try {
		opened.index.session(target);
	} catch (error) {
		const big = host.oversizedFiles().find((p) => p.includes(ref));
		if (big)
			throw new LookbackError(
				"file-too-large",
				`session ${ref} is in ${big}, which is over the ${mebibytes(DEFAULTS.maxFileBytes)} limit lookback reads`,
			);
		if (host.indexing && error instanceof LookbackError && error.code === "session-not-found")
			throw new LookbackError("session-not-found", `${error.message.replace(/^lookback: /, "")} (a first index is still running)`);
		throw error;
	}
	return { opened, ref: target };
}

/** Run one call: a search first brings the index up to date when that is little work, else answers from what is indexed. */
export async function runSessionSearch(
	host: LocalIndex,
	params: SessionSearchParams,
	exclude?: SearchRequest["exclude"],
): Promise<ToolRun> {
	const mode = modeOf(params);
	const needsSync = mode === "discovery" || mode === "browse" || mode === "keyword" || mode === "content" || mode === "list";
	const { opened, state: sync }: { opened: NodeIndex; state: SyncState } = needsSync
		? await host.fresh()
		: { opened: await host.open(), state: {} };
	const index = opened.index;
	const files = opened.files;
	const request = { ...searchRequest(params), exclude };
	let reply: Reply & Pick<ToolReply, "summaryMayBeStale">;
	switch (mode) {
		case "discovery":
			reply = discover(index, request, { ...files, full: params.detail === "full" });
			break;
		case "keyword":
		case "content":
		case "list": {
			const omp = opened.ompAgentDir ? ompMetadata(await loadEngine(), opened.ompAgentDir) : undefined;
			const store = storeAction(
				index,
				mode,
				{ ...request, query: params.query },
				{
					...files,
					full: params.detail === "full",
					extras: omp ? (id) => ({ title: omp.titles.get(id), summary: omp.summaries.get(id) }) : undefined,
				},
			);
			const fromOmp = store.results.some((r) => r.agent === "omp");
			reply = omp?.mayBeStale && fromOmp ? { ...store, summaryMayBeStale: true as const } : store;
			break;
		}
		case "scroll": {
			const { opened: at, ref } = await sessionRef(host, params.sessionId!);
			reply = scroll(at.index, ref, {
				aroundMessageId: params.aroundMessageId!,
				window: params.window,
				branchTip: params.branchTip,
				...files,
			});
			break;
		}
		case "in-session": {
			const { opened: at, ref } = await sessionRef(host, params.sessionId!);
			reply = inSessionReply(
				at.index,
				ref,
				{
					query: params.query ?? "",
					offset: params.offset,
					limit: params.limit,
					role: params.role,
				},
				files,
			);
			break;
		}
		case "read": {
			const { opened: at, ref } = await sessionRef(host, params.sessionId!);
			reply = readWhole(at.index, ref, { ...files, branchTip: params.branchTip });
			break;
		}
		case "browse":
			reply = browseReply(index, {
				limit: params.limit,
				project: params.project,
				since: params.since,
				until: params.until,
				agent: params.agent,
				scope: params.scope,
				gone: params.gone,
			});
			break;
	}
	// Redacted when asked (see params.ts), before the reply is cut to its budget and before the person's lines are drawn from it.
	const whole: ToolReply = { ...reply, ...sync };
	const redact = params.redact ?? redactsByDefault(process.env);
	if (redact) await loadRedaction();
	const full = redact ? redactedReply(whole) : whole;
	const { text, truncated } = boundedJson(full);
	return { text, details: { mode, query: params.query, lines: summaryLines(full, truncated), truncated } };
}
