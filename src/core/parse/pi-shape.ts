/**
 * Entries in the shape of Pi's tree, made from another agent's records: every format module builds its
 * entries with these, so branches, searchable text and the writer need to know only one shape.
 */

import type { SessionEntry } from "./session-format.js";

/** A content block as Pi writes it: text, or a tool call with its arguments. */
export type PiBlock = { type: "text"; text: string } | { type: "toolCall"; id?: string; name: string; arguments: unknown };

interface Place {
	id: string;
	parentId: string | null;
	seq: number;
	timestamp?: string;
}

function entry(place: Place, type: string, raw: Record<string, unknown>): SessionEntry {
	return { type, id: place.id, parentId: place.parentId, timestamp: place.timestamp, seq: place.seq, raw: { type, ...raw } };
}

/** What the person typed. */
export function userEntry(place: Place, text: string): SessionEntry {
	return entry(place, "message", { message: { role: "user", content: [{ type: "text", text }], timestamp: place.timestamp } });
}

/** The model's answer: prose and tool calls. */
export function assistantEntry(place: Place, blocks: PiBlock[], extra: Record<string, unknown> = {}): SessionEntry {
	return entry(place, "message", { message: { role: "assistant", content: blocks, ...extra } });
}

/**
 * Tokens by kind as Pi's `usage` holds them (input without the cache), and the cost when the agent recorded one.
 * Values are passed on as the agent wrote them: one that is not a count is left out where usage is read (entry-usage.ts).
 */
export interface UsageFields {
	input: unknown;
	output: unknown;
	cacheRead: unknown;
	cacheWrite: unknown;
	/** Of the cache writes, those kept for an hour (billed at 2x input against 1.25x for 5 minutes). */
	cacheWrite1h?: unknown;
	/** A service tier or speed other than standard (Codex's `priority`, `flex`; Claude Code's fast mode), as recorded. */
	tier?: unknown;
	costUsd?: unknown;
}

/** Pi's `usage` of an assistant message. */
export function piUsage(u: UsageFields): Record<string, unknown> {
	const counts = [u.input, u.output, u.cacheRead, u.cacheWrite];
	return {
		input: u.input,
		output: u.output,
		cacheRead: u.cacheRead,
		cacheWrite: u.cacheWrite,
		...(counts.every((n) => typeof n === "number") ? { totalTokens: (counts as number[]).reduce((a, b) => a + b, 0) } : {}),
		...(u.cacheWrite1h ? { cacheWrite1h: u.cacheWrite1h } : {}),
		...(typeof u.tier === "string" && u.tier && u.tier !== "standard" && u.tier !== "default" && u.tier !== "auto" ? { tier: u.tier } : {}),
		...(u.costUsd !== undefined ? { cost: { total: u.costUsd } } : {}),
	};
}

/** A count minus others, when all are numbers (OpenAI's and Gemini's input tokens include the cached ones), never below 0. */
export function minus(total: unknown, ...parts: unknown[]): unknown {
	if (typeof total !== "number" || !parts.every((p) => p === undefined || typeof p === "number")) return total;
	return Math.max(
		0,
		parts.reduce<number>((left, p) => left - ((p as number | undefined) ?? 0), total),
	);
}

/**
 * Usage an agent reported apart from the answer it was for (Codex's token counts, when that answer was read in an
 * earlier chunk): an assistant message with no content, in an entry that is not a message, so it counts tokens only.
 * `key` names it across files (see `SessionEntry.usageKey`). `call`: it stands for a model call of its own (a
 * sub-agent's response recorded only in its parent), counted as a message, not tokens only.
 */
export function usageEntry(place: Place, message: Record<string, unknown>, key?: string, call = false): SessionEntry {
	const e = entry(place, "usage", { message: { role: "assistant", content: [], ...message }, ...(call ? { call } : {}) });
	if (key) e.usageKey = key;
	return e;
}

/** What a tool returned. */
export function toolResultEntry(place: Place, toolName: string | undefined, text: string, isError = false): SessionEntry {
	return entry(place, "message", {
		message: { role: "toolResult", toolName, content: [{ type: "text", text }], isError, timestamp: place.timestamp },
	});
}

/** Text the harness put in the model's context (instructions, environment, command output): meta. */
export function metaEntry(place: Place, text: string): SessionEntry {
	return entry(place, "custom_message", { content: text });
}

/** A compaction: the model's context starts again at `firstKeptEntryId`; `summary` is what it was told of the rest. */
export function compactionEntry(place: Place, summary: string, firstKeptEntryId: string): SessionEntry {
	return entry(place, "compaction", { summary, firstKeptEntryId });
}

/** A summary standing in for earlier work (a compaction's summary message). */
export function summaryEntry(place: Place, summary: string): SessionEntry {
	return entry(place, "branch_summary", { summary });
}

/** A record with nothing to search that still links the tree (its children name it as their parent). */
export function linkEntry(place: Place, type: string): SessionEntry {
	return entry(place, type, {});
}

/** Text of a string or of an array of `{type:"text", text}` blocks. */
export function plainText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (typeof block === "string") parts.push(block);
		else if (block && typeof block === "object" && typeof (block as { text?: unknown }).text === "string")
			parts.push((block as { text: string }).text);
	}
	return parts.join("\n");
}

export function asString(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
	return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Compare dotted versions ("2.1.39" < "2.1.332"); missing parts count as 0. */
function versionAbove(version: string, than: string): boolean {
	const a = version.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
	const b = than.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
	for (let i = 0; i < Math.max(a.length, b.length); i++) {
		const d = (a[i] ?? 0) - (b[i] ?? 0);
		if (d !== 0) return d > 0;
	}
	return false;
}

/** Whether a format version is newer than the newest tested and than any seen so far in this file (named once). */
export function untestedVersion(version: string | undefined, tested: string, newestSeen: string | undefined): version is string {
	return version !== undefined && versionAbove(version, tested) && (newestSeen === undefined || versionAbove(version, newestSeen));
}
