/** The `session_search` tool's parameters, every one optional and described for the model. */

import { type Static, Type } from "@sinclair/typebox";
import { AGENT_KINDS, AGENTS } from "../agents/registry.js";
// The few modules these come from, not the core's barrel: the extension's entry loads this file, and Pi pays for
// every module it loads before the first search needs it.
import { DEFAULTS } from "../core/defaults.js";
import { ROLES } from "../core/parse/roles.js";
import { GONE_FILTERS, SCOPES } from "../core/query/session-filter.js";
import { STORE_ACTIONS } from "./modes.js";

/** A string enum as plain JSON Schema `{type: "string", enum}` (what pi-ai's StringEnum makes; Google's API rejects anyOf of literals). */
function StringEnum<T extends readonly string[]>(values: T, options: { description: string }) {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

export const sessionSearchParams = Type.Object({
	query: Type.Optional(
		Type.String({
			description:
				'What to find in past sessions: keywords or a question in your own words (the words around it, brackets and flags are read as such). Words are ANDed; OR/AND/NOT in capitals, "exact phrase", prefix*, -word in a short keyword query. Identifiers also match words containing them. Chinese works at any length. An empty reply says why (why).',
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
			description: `Only sessions of this coding agent (default: every agent; ${AGENTS.map((a) => `${a.kind} is ${a.label}`).join(", ")}).`,
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
	gone: Type.Optional(
		StringEnum(GONE_FILTERS, {
			description:
				'Sessions whose file the agent deleted (kept by lookback, marked source: "gone"; resumeHint restores them first): "only" those, "exclude" them (default: both).',
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
				"Replace API keys, tokens, private keys and passwords in the reply by [REDACTED:kind] markers, counted in redactions (default true; false only when the person asked to see a secret as it is; LOOKBACK_REDACT=0 in the environment makes false the default).",
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
