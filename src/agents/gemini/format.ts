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
import {
	asRecord,
	asString,
	assistantEntry,
	compactionEntry,
	linkEntry,
	metaEntry,
	minus,
	type PiBlock,
	piUsage,
	plainText,
	toolResultEntry,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** One message of the chat: its last record, the message before it (by id), its place of first appearance. */
interface Slot {
	id: string;
	record: Record<string, unknown>;
	/** The message this one follows (null: the first); undefined until placed. */
	after: string | null;
	order: number;
	/** Byte range of the line of its last record, when that line held only this message. */
	range?: { start: number; end: number };
	/** A compression's summary: the messages it stands in for (they stay before it, compacted); the acknowledgement after it. */
	compression?: { replaced: string[] } | "ack";
}

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

/** Text the CLI puts before the first prompt (date, OS, the folder's listing): the same in every chat, not searched. */
function isSessionContext(text: string): boolean {
	return text.trimStart().startsWith("<session_context>");
}

/** Tool output the CLI wraps as untrusted for the model: the wrapper is not part of what the tool said. */
function unwrap(text: string): string {
	const m = /^\s*<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>\s*$/.exec(text);
	return m ? m[1] : text;
}

function partsOf(content: unknown): Record<string, unknown>[] {
	if (typeof content === "string") return [{ text: content }];
	if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? { text: p } : asRecord(p))).filter((p) => p !== undefined);
	const one = asRecord(content);
	return one ? [one] : [];
}

/** Prose of a message's parts: text (not the model's thoughts), images and files named. */
function partsText(content: unknown): string {
	const out: string[] = [];
	for (const part of partsOf(content)) {
		if (typeof part.text === "string" && part.thought !== true) out.push(part.text);
		else if (asRecord(part.inlineData)) out.push(`[${asString(asRecord(part.inlineData)?.mimeType) ?? "inline data"}]`);
		else if (asRecord(part.fileData)) out.push(`[${asString(asRecord(part.fileData)?.fileUri) ?? "file"}]`);
	}
	return out.join("\n").trim();
}

/** What a tool said: each functionResponse's output (or error), and any text beside it. */
function responseText(parts: Record<string, unknown>[]): { text: string; error: boolean } {
	const out: string[] = [];
	let error = false;
	for (const part of parts) {
		const fr = asRecord(part.functionResponse);
		if (fr) {
			const response = asRecord(fr.response);
			const output = response?.output ?? response?.result ?? response?.content;
			if (typeof response?.error === "string" && output === undefined) {
				error = true;
				out.push(response.error);
			} else if (typeof output === "string") out.push(unwrap(output));
			else if (output !== undefined) out.push(JSON.stringify(output));
			else if (response) out.push(JSON.stringify(response));
		} else if (typeof part.text === "string") out.push(part.text);
	}
	return { text: out.join("\n").trim(), error };
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

/** The entries of one message: a prompt, the model's answer and its tools' results, or a notice of the CLI. */
function slotEntries(slot: Slot, state: ParseState, answered: Set<string>): { entries: SessionEntry[]; unknown?: boolean } {
	const r = slot.record;
	const timestamp = asString(r.timestamp);
	const place = (id = slot.id) => ({ id, parentId: null, seq: state.nextSeq++, timestamp });
	const type = asString(r.type);
	const one = (e: SessionEntry) => {
		if (slot.range) e.range = slot.range;
		return { entries: [e] };
	};
	// A compression's summary: the model's context starts again here; the acknowledgement after it says nothing.
	if (typeof slot.compression === "object") return { entries: [compactionEntry(place(), partsText(r.content), slot.id)] };
	if (slot.compression === "ack") return { entries: [linkEntry(place(), "compression_ack")] };
	if (type === "user") {
		const parts = partsOf(r.content);
		const responses = parts.filter((p) => asRecord(p.functionResponse));
		const text = partsText(r.displayContent ?? r.content);
		if (text.length > 0) return isSessionContext(text) ? { entries: [linkEntry(place(), "context")] } : one(userEntry(place(), text));
		if (responses.length > 0) {
			// A response is indexed once: from the call's own record, else from its first user-role copy.
			const ids = responses.map((p) => asString(asRecord(p.functionResponse)?.id));
			if (ids.every((id) => id !== undefined && answered.has(id))) return { entries: [linkEntry(place(), "tool_response")] };
			for (const id of ids) if (id !== undefined) answered.add(id);
			const said = responseText(responses);
			return one(toolResultEntry(place(), asString(asRecord(responses[0].functionResponse)?.name), said.text, said.error));
		}
		return { entries: [linkEntry(place(), "user")] };
	}
	if (type === "gemini") return modelEntries(r, place, slot);
	if (type === "info" || type === "error" || type === "warning") {
		const text = partsText(r.content) || plainText(r.content);
		return text.length > 0 ? one(metaEntry(place(), type === "info" ? text : `${type}: ${text}`)) : { entries: [linkEntry(place(), type)] };
	}
	return { entries: [linkEntry(place(), type ?? "message")], unknown: true };
}

/**
 * Gemini's token counts in Pi's shape: `input` (the prompt) includes what was read from the cache and the tools' part
 * of the prompt is counted beside it; the model's thoughts are billed as output.
 */
function geminiUsage(tokens: unknown): { usage?: Record<string, unknown> } {
	const t = asRecord(tokens);
	if (!t) return {};
	const prompt = typeof t.tool === "number" && typeof t.input === "number" ? t.input + t.tool : t.input;
	const output = typeof t.thoughts === "number" && typeof t.output === "number" ? t.output + t.thoughts : t.output;
	return { usage: piUsage({ input: minus(prompt, t.cached), output, cacheRead: t.cached ?? 0, cacheWrite: 0 }) };
}

function modelEntries(
	r: Record<string, unknown>,
	place: (id?: string) => { id: string; parentId: string | null; seq: number; timestamp?: string },
	slot: Slot,
): { entries: SessionEntry[] } {
	const calls = (Array.isArray(r.toolCalls) ? r.toolCalls : []).map(asRecord).filter((c) => c !== undefined);
	const blocks: PiBlock[] = [];
	const text = partsText(r.content);
	if (text.length > 0) blocks.push({ type: "text", text });
	if (calls.length > 0) {
		for (const call of calls)
			blocks.push({ type: "toolCall", id: asString(call.id), name: asString(call.name) ?? "tool", arguments: call.args });
	} else {
		// A checkpoint's model turn carries its calls as parts only when they were never recorded as tool calls.
		for (const part of partsOf(r.content)) {
			const fc = asRecord(part.functionCall);
			if (fc) blocks.push({ type: "toolCall", id: asString(fc.id), name: asString(fc.name) ?? "tool", arguments: fc.args });
		}
	}
	const entries = [assistantEntry(place(), blocks, { model: r.model, provider: "google", ...geminiUsage(r.tokens) })];
	if (slot.range) entries[0].range = slot.range;
	let previous = entries[0].id;
	calls.forEach((call, i) => {
		const parts = partsOf(call.result);
		let said = responseText(parts);
		if (said.text.length === 0 && typeof call.resultDisplay === "string") said = { text: call.resultDisplay, error: said.error };
		if (said.text.length === 0 && parts.length === 0) return;
		// A sub-agent's call names its chat (`agentId`, the file `chats/<parent>/<agentId>.jsonl`): the result says so, as Claude Code's does.
		const agentId = asString(call.agentId);
		const e = toolResultEntry(
			place(`${slot.id}#${asString(call.id) ?? i}`),
			asString(call.name),
			agentId ? `${said.text}\nagentId: ${agentId}` : said.text,
			said.error || call.status === "error",
		);
		e.parentId = previous;
		previous = e.id;
		entries.push(e);
	});
	return { entries };
}
