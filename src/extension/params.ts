/** The `session_search` tool's parameters, every one optional and described for the model. */

import { Type, type Static } from "@sinclair/typebox";

/** A string enum as plain JSON Schema `{type: "string", enum}` (what pi-ai's StringEnum makes; Google's API rejects anyOf of literals). */
function StringEnum<T extends readonly string[]>(values: T, options: { description: string }) {
	return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

export const sessionSearchParams = Type.Object({
	query: Type.Optional(
		Type.String({
			description:
				'What to find in past sessions. Words are ANDed; OR, NOT/-word, "exact phrase", prefix*. A word of 3+ letters also matches identifiers containing it. Chinese works at any length.',
		}),
	),
	project: Type.Optional(Type.String({ description: "Only sessions whose working directory or name contains this text." })),
	since: Type.Optional(Type.String({ description: "Only messages at or after: a date 2026-07-30, an ISO datetime, or an age like 3d, 6h, 2w." })),
	until: Type.Optional(Type.String({ description: "Only messages before: a date (whole day included), an ISO datetime, or an age." })),
	role: Type.Optional(StringEnum(["user", "assistant", "tool", "summary", "meta"] as const, { description: "Only text of this role." })),
	limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: "Sessions to return (default 10)." })),
	scope: Type.Optional(
		StringEnum(["top", "all"] as const, {
			description: 'omp sub-agent transcripts: "all" includes them (the default for a query), "top" leaves them out (the default for browsing).',
		}),
	),
	detail: Type.Optional(StringEnum(["full"] as const, { description: '"full" returns the messages around the hit for every result, not only the first.' })),
	sessionId: Type.Optional(
		Type.String({ description: "Read this session (id, unique id prefix, or .jsonl path from an earlier result). Alone: its whole active branch, bounded." }),
	),
	aroundMessageId: Type.Optional(Type.String({ description: "With sessionId: show the messages around this entry id (scroll)." })),
	window: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: "With aroundMessageId: messages on each side (default 5)." })),
	branchTip: Type.Optional(Type.String({ description: "With sessionId: stay on the branch ending at this entry (the branchTip of a previous reply)." })),
	action: Type.Optional(
		StringEnum(["keyword", "content", "list"] as const, {
			description: "omp-session-store style: keyword = what the user asked, names and summaries; content = every message and tool output; list = sessions by project and time.",
		}),
	),
});

export type SessionSearchParams = Static<typeof sessionSearchParams>;

/** Which mode a call is. */
export type Mode = "discovery" | "scroll" | "read" | "browse" | "keyword" | "content" | "list";

export function modeOf(p: SessionSearchParams): Mode {
	if (p.action) return p.action;
	if (p.sessionId && p.aroundMessageId) return "scroll";
	if (p.sessionId) return "read";
	if (p.query && p.query.trim().length > 0) return "discovery";
	return "browse";
}
