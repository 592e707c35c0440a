/** The entries of one message of a Gemini CLI chat, in Pi's shape: a prompt, the model's answer and its tools' results, or a notice. */

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
import type { ParseState, SessionEntry } from "../../core/parse/session-format.js";
import { isSessionContext, partsOf, partsText, responseText } from "./parts.js";

/** One message of the chat: its last record, the message before it (by id), its place of first appearance. */
export interface Slot {
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

/** The entries of one message: a prompt, the model's answer and its tools' results, or a notice of the CLI. */
export function slotEntries(slot: Slot, state: ParseState, answered: Set<string>): { entries: SessionEntry[]; unknown?: boolean } {
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
