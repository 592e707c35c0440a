/** One `session_search` call: pick the mode, run the core call, add the sync state, bound the reply. */

import {
	boundedJson,
	browseReply,
	DEFAULTS,
	discover,
	type HostFiles,
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
import { ompMetadata } from "../node/omp-files.js";
import type { NodeIndex } from "../node/open.js";
import { sessionPathInRoots } from "../node/paths.js";
import { sessionFiles } from "../node/session-files.js";
import { type Mode, modeOf, type SessionSearchParams } from "./params.js";
import { summaryLines } from "./render.js";
import { awaitBackgroundIndex, oversizedFiles, startSync, syncBeforeSearch } from "./shared-index.js";
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

const files: HostFiles = sessionFiles;

/** A session reference checked against the roots: a path must be a .jsonl inside them; an id not indexed may be an oversized file. */
async function sessionRef(opened: NodeIndex, ref: string, waitMs: number): Promise<string> {
	const path = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : undefined;
	const tooLarge = path ? oversizeError(path, files) : undefined;
	if (tooLarge) throw new LookbackError("file-too-large", tooLarge);
	try {
		opened.index.session(path ?? ref);
		return path ?? ref;
	} catch {
		// Not indexed yet: let a running background index finish (briefly), or sync, and look again.
		if (await awaitBackgroundIndex(waitMs)) await startSync(opened);
	}
	try {
		opened.index.session(path ?? ref);
	} catch (error) {
		const big = oversizedFiles().find((p) => p.includes(ref));
		if (big)
			throw new LookbackError(
				"file-too-large",
				`session ${ref} is in ${big}, which is over the ${mebibytes(DEFAULTS.maxFileBytes)} limit lookback reads`,
			);
		throw error;
	}
	return path ?? ref;
}

/** Run one call; `waitMs` bounds the wait for a running background index (default `DEFAULTS.indexWaitMs`). */
export async function runSessionSearch(
	opened: NodeIndex,
	params: SessionSearchParams,
	exclude?: SearchRequest["exclude"],
	waitMs: number = DEFAULTS.indexWaitMs,
): Promise<ToolRun> {
	const mode = modeOf(params);
	const index = opened.index;
	const needsSync = mode === "discovery" || mode === "browse" || mode === "keyword" || mode === "content" || mode === "list";
	const sync: SyncState = needsSync ? await syncBeforeSearch(opened, waitMs) : {};
	const request = {
		query: params.query ?? "",
		variants: params.queryVariants,
		project: params.project,
		since: params.since,
		until: params.until,
		role: params.role,
		agent: params.agent,
		limit: params.limit,
		scope: params.scope,
		exclude,
	};
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
			const ref = await sessionRef(opened, params.sessionId!, waitMs);
			reply = scroll(index, ref, {
				aroundMessageId: params.aroundMessageId!,
				window: params.window,
				branchTip: params.branchTip,
				...files,
			});
			break;
		}
		case "in-session":
			reply = inSessionReply(
				index,
				await sessionRef(opened, params.sessionId!, waitMs),
				{
					query: params.query ?? "",
					offset: params.offset,
					limit: params.limit,
					role: params.role,
				},
				files,
			);
			break;
		case "read":
			reply = readWhole(index, await sessionRef(opened, params.sessionId!, waitMs), { ...files, branchTip: params.branchTip });
			break;
		case "browse":
			reply = browseReply(index, {
				limit: params.limit,
				project: params.project,
				since: params.since,
				until: params.until,
				agent: params.agent,
				scope: params.scope,
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
