/**
 * The omp-session-store actions, in the shape of omp's session store beside ours: `keyword` ranks what the
 * user asked plus session names and summaries, `content` searches every indexed message, `list` browses by
 * project and time.
 */

import { DEFAULTS } from "../defaults.js";
import { LookbackError } from "../errors.js";
import type { LookbackIndex } from "../lookback.js";
import type { Role } from "../parse/entry-text.js";
import { sessionFilterOf } from "../query/session-filter.js";
import type { SessionSummary } from "../read/session-rows.js";
import type { SearchRequest } from "../search/search.js";
import { flatten } from "../text/display.js";
import { type DiscoveryOptions, discoveryReply, type ToolHit } from "./discovery.js";

/** One result in the shape of omp's session store. */
interface StoreFields {
	session_id: string;
	project: string;
	cwd?: string;
	time?: string;
	title: string;
	summary?: string;
	snippet: string;
	path: string;
	message_count: number;
	resume_hint: string;
}

/** omp's fields and ours: every result names its session by `sessionId` too; a listed one what it used, where known. */
export type StoreResult = StoreFields & Partial<ToolHit> & Pick<ToolHit, "sessionId"> & Pick<SessionSummary, "usage">;

export type StoreAction = "keyword" | "content" | "list";

export interface StoreReply {
	action: StoreAction;
	total: number;
	results: StoreResult[];
	notice?: string;
	error?: string;
}

/** Titles and summaries kept outside the transcripts (omp's history.db and agent.db), by session id. */
export type SessionExtras = (sessionId: string) => { title?: string; summary?: string } | undefined;

export interface StoreOptions extends DiscoveryOptions {
	extras?: SessionExtras;
}

/** What a store result says of a session, wherever it was found. */
type Found = Pick<SessionSummary, "sessionId" | "project" | "cwd" | "name" | "firstPrompt" | "path" | "messageCount" | "resumeHint"> & {
	time?: string;
	snippet?: string;
};

function storeFields(index: LookbackIndex, s: Found, extras: SessionExtras | undefined): StoreFields {
	const extra = extras?.(s.sessionId);
	return {
		session_id: s.sessionId,
		project: s.project,
		cwd: s.cwd,
		time: s.time,
		title: s.name ?? extra?.title ?? flatten(s.firstPrompt, DEFAULTS.titleChars),
		summary: extra?.summary ?? index.latestSummary(s.path),
		snippet: s.snippet ?? s.firstPrompt ?? "",
		path: s.path,
		message_count: s.messageCount,
		resume_hint: s.resumeHint,
	};
}

/** Roles `keyword` searches unless the request names some: what the user asked, names and summaries. */
const KEYWORD_ROLES: Role[] = ["user", "meta", "summary"];

export function storeAction(
	index: LookbackIndex,
	action: StoreAction,
	request: Omit<SearchRequest, "query"> & { query?: string },
	options: StoreOptions = {},
): StoreReply {
	if (action === "list") {
		const sessions = index.browse({ ...sessionFilterOf(request), limit: request.limit });
		const results = sessions.map((s) => ({
			...storeFields(index, { ...s, time: s.modified }, options.extras),
			sessionId: s.sessionId,
			name: s.name,
			agent: s.agent,
			kind: s.kind,
			...(s.usage ? { usage: s.usage } : {}),
		}));
		return { action, total: sessions.length, results };
	}
	if (!request.query) throw new LookbackError("bad-argument", `action "${action}" needs a query`);
	const response = index.search({
		...request,
		query: request.query,
		role: request.role ?? (action === "keyword" ? KEYWORD_ROLES : undefined),
		readRange: request.readRange ?? options.readRange,
	});
	const reply = discoveryReply(index, response, options);
	return {
		action,
		total: reply.total,
		results: reply.results.map((hit, i) => ({
			...storeFields(index, { ...hit, firstPrompt: response.results[i].firstPrompt }, options.extras),
			...hit,
		})),
		...(reply.notice ? { notice: reply.notice } : {}),
		...(reply.error ? { error: reply.error } : {}),
	};
}
