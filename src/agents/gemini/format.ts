/**
 * Gemini CLI's chats (`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`, sub-agents in
 * `chats/<parentSessionId>/<id>.jsonl`): line 1 the session's metadata, then messages, `{"$set": …}` metadata
 * updates (a `$set.messages` array is a full checkpoint of the conversation) and `{"$rewindTo": id}`. A message
 * is written again whole whenever it changes (its tool calls finished, its tokens counted): the last record of
 * an id wins, in the place of its first. Before 0.39 a chat was one JSON document (`session-….json`) holding the
 * same messages. Gemini keeps no parent ids: messages are chained in order, a rewind or a checkpoint that drops
 * messages leaves them on an abandoned branch (still searchable), but for a compression: its checkpoint puts the
 * summary (and the CLI's fixed acknowledgement) in place of the messages it summarized, which stay on the
 * branch, compacted. Read into Pi's entry shape.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import { asRecord, asString, linkEntry } from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";
import { type Slot, slotEntries } from "./entries.js";
import { partsText } from "./parts.js";

/** What the CLI has the model answer to a compression's summary (ChatCompressionService): a fixed text. */
const COMPRESSION_ACK = "Got it. Thanks for the additional context!";

/** What a parse of a Gemini chat gathers before it makes entries (the whole file is read at once: `growth: "whole"`). */
interface GeminiState {
	slots: Map<string, Slot>;
	/** Ids of the messages in the conversation now, in order. */
	active: string[];
	order: number;
	meta: Record<string, unknown>;
}

function geminiState(state: ParseState): GeminiState {
	state.format ??= { slots: new Map(), active: [], order: 0, meta: {} } satisfies GeminiState;
	return state.format as GeminiState;
}

export const geminiFormat: SessionFormat = {
	growth: "whole",
	parseLines(lines, state, at): ParsedChunk {
		const gs = geminiState(state);
		let malformedLines = 0;
		let unknownRecords = 0;
		for (const [i, line] of lines.entries()) {
			if (line.trim().length === 0) continue;
			const obj = parseJsonObject(line);
			if (!obj) {
				malformedLines++;
				continue;
			}
			const range = at ? { start: at.base + at.offsets[i], end: at.base + (at.offsets[i + 1] ?? at.consumedBytes) } : undefined;
			if (!readRecord(obj, gs, range)) unknownRecords++;
		}
		return finish(state, gs, malformedLines, unknownRecords);
	},
	parseDocument(bytes, state) {
		// Before 0.39 a chat was one JSON document, pretty-printed: its first line alone is not a JSON object.
		const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
		const first = text.slice(0, text.indexOf("\n") >>> 0).trim();
		if (!first.startsWith("{") || parseJsonObject(first)) return undefined;
		const doc = parseJsonObject(text);
		if (!doc) return undefined;
		const gs = geminiState(state);
		const known = readRecord(doc, gs, undefined);
		return finish(state, gs, 0, known ? 0 : 1);
	},
	sniff(first) {
		// A chat's first line is its metadata: the session's id and its project's hash, and no type (each of Claude
		// Code's lines has one, and names its session too).
		return first.type === undefined && typeof first.sessionId === "string" && typeof first.projectHash === "string";
	},
	entriesOfLine(line) {
		const obj = parseJsonObject(line);
		if (!obj || typeof obj.id !== "string") return [];
		const state: ParseState = { nextSeq: 1, lastId: null };
		const gs = geminiState(state);
		readRecord(obj, gs, undefined);
		return finish(state, gs, 0, 0).entries;
	},
};

/** Fold one record into the chat; false for a record of no known shape. */
function readRecord(obj: Record<string, unknown>, gs: GeminiState, range: Slot["range"]): boolean {
	if (typeof obj.$rewindTo === "string") {
		const at = gs.active.indexOf(obj.$rewindTo);
		// The CLI drops the message and all after it; a rewind to a message it does not know empties the chat.
		gs.active = at >= 0 ? gs.active.slice(0, at) : [];
		return true;
	}
	const set = asRecord(obj.$set);
	if (set) {
		const { messages, ...rest } = set;
		Object.assign(gs.meta, rest);
		if (Array.isArray(messages)) checkpoint(messages, gs);
		return true;
	}
	if (typeof obj.id === "string") {
		message(obj, gs, range);
		return true;
	}
	if (typeof obj.sessionId === "string") {
		// The metadata line (also written again when a legacy chat is carried over to .jsonl); a legacy document holds the messages too.
		const { messages, startTime, ...rest } = obj;
		// A resumed chat gets a metadata line of its own: the chat started at the first one.
		gs.meta.startTime ??= startTime;
		Object.assign(gs.meta, rest);
		if (Array.isArray(messages))
			for (const m of messages)
				if (asRecord(m) && typeof asRecord(m)?.id === "string") message(m as Record<string, unknown>, gs, undefined);
		return true;
	}
	return false;
}

/** A message record: the last one of an id wins, in its first place; one dropped by a rewind and written again rejoins at the end. */
function message(record: Record<string, unknown>, gs: GeminiState, range: Slot["range"]): void {
	const id = record.id as string;
	const slot = gs.slots.get(id);
	if (slot) {
		slot.record = record;
		slot.range = range;
		if (!gs.active.includes(id)) {
			slot.after = gs.active.at(-1) ?? null;
			gs.active.push(id);
		}
		return;
	}
	gs.slots.set(id, { id, record, after: gs.active.at(-1) ?? null, order: gs.order++, range });
	gs.active.push(id);
}

/**
 * Whether message `i` of a checkpoint is a compression's summary, new to the chat: a user message the model
 * acknowledges with the CLI's fixed answer (the summary itself is the model's `<state_snapshot>`).
 */
function isCompression(records: Record<string, unknown>[], i: number, gs: GeminiState): boolean {
	const [summary, ack] = [records[i], records[i + 1]];
	if (summary.type !== "user" || gs.slots.has(summary.id as string)) return false;
	if (partsText(summary.content).startsWith("<state_snapshot>")) return true;
	return ack?.type === "gemini" && !gs.slots.has(ack.id as string) && partsText(ack.content) === COMPRESSION_ACK;
}

/**
 * `$set.messages`: the whole conversation now, in order. Messages not in it leave the active branch, unless a
 * compression's summary in it stands in for them: they stay before it (compacted), each time the summary is placed.
 */
function checkpoint(messages: unknown[], gs: GeminiState): void {
	const records: Record<string, unknown>[] = [];
	const listed = new Set<string>();
	for (const raw of messages) {
		const record = asRecord(raw);
		const id = asString(record?.id);
		if (!record || !id || listed.has(id)) continue;
		listed.add(id);
		records.push(record);
	}
	const active: string[] = [];
	const place = (slot: Slot) => {
		slot.after = active.at(-1) ?? null;
		active.push(slot.id);
	};
	records.forEach((record, i) => {
		const id = record.id as string;
		let slot = gs.slots.get(id);
		if (slot) {
			// The CLI writes a checkpoint's messages as `{...earlier, content}`: fields it left out (tool calls) are kept,
			// and so is the earlier line's range when the text is the same (a string written again as parts).
			if (partsText(slot.record.content) !== partsText(record.content)) slot.range = undefined;
			slot.record = { ...slot.record, ...record };
		} else {
			const previous = gs.slots.get(active.at(-1) ?? "");
			const compression = isCompression(records, i, gs)
				? { replaced: gs.active.filter((a) => !listed.has(a)) }
				: typeof previous?.compression === "object" && record.type === "gemini" && partsText(record.content) === COMPRESSION_ACK
					? ("ack" as const)
					: undefined;
			slot = { id, record, after: null, order: gs.order++, ...(compression ? { compression } : {}) };
			gs.slots.set(id, slot);
		}
		if (typeof slot.compression === "object")
			for (const r of slot.compression.replaced) {
				const before = gs.slots.get(r);
				if (before && !listed.has(r) && !active.includes(r)) place(before);
			}
		place(slot);
	});
	gs.active = active;
}

/** The entries of the whole chat, and its header; the last active message is the leaf. */
function finish(state: ParseState, gs: GeminiState, malformedLines: number, unknownRecords: number): ParsedChunk {
	const meta = gs.meta;
	const sessionId = asString(meta.sessionId);
	// A sub-agent's summary is its result, often pretty-printed JSON: one line.
	const summary = asString(meta.summary)?.replace(/\s+/g, " ").trim() || undefined;
	if (sessionId && !state.header) {
		const dirs = Array.isArray(meta.directories) ? meta.directories.filter((d): d is string => typeof d === "string") : [];
		state.header = { id: sessionId, version: 1, timestamp: asString(meta.startTime), cwd: dirs[0] };
	}
	if (state.header && summary) state.header.title = summary;
	if (state.nextSeq === 0) state.nextSeq = 1;
	// Tool calls answered inside a model message: the user-role copies of their responses are not indexed again.
	const answered = new Set<string>();
	for (const slot of gs.slots.values())
		for (const call of Array.isArray(slot.record.toolCalls) ? slot.record.toolCalls : []) {
			const id = asString(asRecord(call)?.id);
			if (id) answered.add(id);
		}
	const slots = [...gs.slots.values()].sort((a, b) => a.order - b.order);
	const made = new Map<string, SessionEntry[]>();
	let unknown = unknownRecords;
	for (const slot of slots) {
		const result = slotEntries(slot, state, answered);
		if (result.unknown) unknown++;
		made.set(slot.id, result.entries);
	}
	const tail = (id: string | null): string | null => {
		const entries = id === null ? undefined : made.get(id);
		return entries && entries.length > 0 ? entries[entries.length - 1].id : null;
	};
	const entries: SessionEntry[] = [];
	// A chat with nothing but the CLI's opening context (the empty chat a resume leaves behind) has no entries.
	if ([...made.values()].every((list) => list.every((e) => e.type === "context"))) made.clear();
	for (const slot of slots) {
		const list = made.get(slot.id) ?? [];
		if (list.length > 0) list[0].parentId = tail(slot.after);
		entries.push(...list);
	}
	// The leaf is the last entry in file order: when the chat ends before messages it dropped, a link marks where it ends.
	const leaf = gs.active.at(-1) ?? null;
	const last = entries.at(-1);
	if (last && last.id !== tail(leaf))
		entries.push(linkEntry({ id: `${sessionId ?? "chat"}-end`, parentId: tail(leaf), seq: state.nextSeq++ }, "rewind"));
	return {
		entries,
		malformedLines,
		...(unknown > 0 ? { unknownRecords: unknown } : {}),
		...(summary ? { title: summary } : {}),
	};
}
