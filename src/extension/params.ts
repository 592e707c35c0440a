/** The `session_search` tool's parameters, every one optional and described for the model. */

import { type Static, Type } from "@sinclair/typebox";
import { AGENT_KINDS, DEFAULTS, ROLES, SCOPES, type StoreAction } from "../core/index.js";

/** A string enum as plain JSON Schema `{type: "string", enum}` (what pi-ai's StringEnum makes; Google's API rejects anyOf of literals). */
function StringEnum<T extends readonly string[]>(values: T, options: { description: string }) {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** The omp-session-store actions. */
const STORE_ACTIONS: readonly StoreAction[] = ["keyword", "content", "list"];

export const sessionSearchParams = Type.Object({
	query: Type.Optional(
		Type.String({
			description:
				'What to find in past sessions. Words are ANDed; OR, NOT/-word, "exact phrase", prefix*. A word of 3+ letters also matches identifiers containing it. Chinese works at any length.',
		}),
	),
	queryVariants: Type.Optional(
		Type.Array(Type.String(), {
			maxItems: 3,
			description:
				"Up to 3 other phrasings of query, searched with it and fused into one ranking; each hit says which phrasing found it. Pass them when the query is a question, when the sessions may be in another language than the user's words (give the translation), or when the memory is vague (synonyms, the likely identifier).",
		}),
	),
	project: Type.Optional(Type.String({ description: "Only sessions whose working directory or name contains this text." })),
	since: Type.Optional(
		Type.String({ description: "Only messages at or after: a date 2026-07-30, an ISO datetime, or an age like 3d, 6h, 2w." }),
	),
	until: Type.Optional(Type.String({ description: "Only messages before: a date (whole day included), an ISO datetime, or an age." })),
	role: Type.Optional(StringEnum(ROLES, { description: "Only text of this role." })),
	agent: Type.Optional(
		StringEnum(AGENT_KINDS, {
			description: "Only sessions of this coding agent (default: every agent; claude is Claude Code, gemini is Gemini CLI).",
		}),
	),
	limit: Type.Optional(
		Type.Integer({ minimum: 1, maximum: DEFAULTS.replyMaxSessions, description: `Sessions to return (default ${DEFAULTS.searchLimit}).` }),
	),
	scope: Type.Optional(
		StringEnum(SCOPES, {
			description: `Sub-agent transcripts (omp, Claude Code, Codex, Gemini, OpenCode): "all" includes them, "top" leaves them out (default "${DEFAULTS.searchScope}" for a query, "${DEFAULTS.browseScope}" for browsing).`,
		}),
	),
	detail: Type.Optional(
		StringEnum(["full"] as const, { description: '"full" returns the messages around the hit for every result, not only the first.' }),
	),
	sessionId: Type.Optional(
		Type.String({
			description:
				"Read this session (id, unique id prefix, or .jsonl path from an earlier result). Alone: its whole active branch, bounded. With query: every entry of this session that matches, in order, on every branch, with entry ids to scroll around (page with offset).",
		}),
	),
	offset: Type.Optional(
		Type.Integer({ minimum: 0, description: "With sessionId + query: matches to skip (the next of a previous reply)." }),
	),
	aroundMessageId: Type.Optional(Type.String({ description: "With sessionId: show the messages around this entry id (scroll)." })),
	window: Type.Optional(
		Type.Integer({
			minimum: 1,
			maximum: DEFAULTS.readMaxWindow,
			description: `With aroundMessageId: messages on each side (default ${DEFAULTS.readWindow}).`,
		}),
	),
	branchTip: Type.Optional(
		Type.String({ description: "With sessionId: stay on the branch ending at this entry (the branchTip of a previous reply)." }),
	),
	redact: Type.Optional(
		Type.Boolean({
			description:
				"Replace API keys, tokens, private keys and passwords in the reply by [REDACTED:kind] markers (default false, or the person's LOOKBACK_REDACT setting). Pass true when what you read will be shared: pasted into an issue, a PR, a message or a file others see.",
		}),
	),
	action: Type.Optional(
		StringEnum(STORE_ACTIONS, {
			description:
				"omp-session-store style: keyword = what the user asked, names and summaries; content = every message and tool output; list = sessions by project and time.",
		}),
	),
});

export type SessionSearchParams = Static<typeof sessionSearchParams>;

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
