/**
 * Which mode a `session_search` call is, and what it is about: apart from the parameters' schema (params.ts,
 * which needs TypeBox, Pi's to give), so that the tool's bundle (tool-entry.ts) carries no Pi package.
 */

import type { StoreAction } from "../core/index.js";
import type { SessionSearchParams } from "./params.js";

/** The omp-session-store actions. */
export const STORE_ACTIONS: readonly StoreAction[] = ["keyword", "content", "list"];

/** Which mode a call is. */
export type Mode = "discovery" | "scroll" | "read" | "in-session" | "browse" | "keyword" | "content" | "list";

/** A call's arguments as a host hands them to a renderer (its own schema types make them unknown): checked here. */
export type CallArgs = { readonly [K in keyof SessionSearchParams]?: unknown };

function given(value: unknown): string | undefined {
	return typeof value === "string" && value.length > 0 ? value : undefined;
}

export function modeOf(p: CallArgs): Mode {
	const action = STORE_ACTIONS.find((a) => a === p.action);
	if (action) return action;
	if (given(p.sessionId) && given(p.aroundMessageId)) return "scroll";
	if (given(p.sessionId) && given(p.query)?.trim()) return "in-session";
	if (given(p.sessionId)) return "read";
	if (given(p.query)?.trim()) return "discovery";
	return "browse";
}

/** What a call is about, for its header line. */
export function callSubject(p: CallArgs): string {
	return given(p.query) ?? given(p.sessionId) ?? "recent sessions";
}

/** A discovery call's query and filters, as this machine's index (run-tool.ts) or a team's (remote-tool.ts) is asked them. */
export function searchRequest(p: SessionSearchParams) {
	return {
		query: p.query ?? "",
		variants: p.queryVariants,
		project: p.project,
		since: p.since,
		until: p.until,
		role: p.role,
		agent: p.agent,
		limit: p.limit,
		scope: p.scope,
		gone: p.gone,
	};
}
