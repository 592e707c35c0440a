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
