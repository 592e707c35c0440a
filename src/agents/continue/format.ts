/**
 * Continue's sessions (`<continue dir>/sessions/<session id>.json`): one JSON document, `{sessionId, title,
 * workspaceDirectory, history, usage}`, written again whole after each turn (`growth: "whole"`). Each item of
 * `history` is a message (`user`, `assistant` with its `toolCalls` and `usage`, `system`) with the states of the tool
 * calls it made (`toolCallStates`: arguments, status and `output`); a compaction replaces the history with its
 * summary (an item with `conversationSummary`). Items keep no ids: an entry's id is its place in the history. The
 * title is the session's `title` once it is not the CLI's "Untitled Session". Read into Pi's entry shape.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	metaEntry,
	minus,
	type PiBlock,
	piUsage,
	summaryEntry,
	toolResultEntry,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The title the CLI gives every new session. */
const UNTITLED = "Untitled Session";

/** Text of a message's content: a string, or parts (`text`; an image as `[image]`). */
function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((p) => {
			const part = asRecord(p);
			return part?.type === "text" ? (asString(part.text) ?? "") : part?.type === "imageUrl" ? "[image]" : "";
		})
		.filter((t) => t.length > 0)
		.join("\n");
}

/** OpenAI's token counts in Pi's shape: the prompt includes what was read from the cache. */
function continueUsage(usage: unknown): Record<string, unknown> {
	const u = asRecord(usage);
	if (!u) return {};
	const cached = asRecord(u.prompt_tokens_details)?.cached_tokens ?? 0;
	const costUsd = typeof u.cost_cents === "number" && u.cost_cents > 0 ? u.cost_cents / 100 : undefined;
	return {
		model: u.model,
		usage: piUsage({ input: minus(u.prompt_tokens, cached), output: u.completion_tokens, cacheRead: cached, cacheWrite: 0, costUsd }),
	};
}

function arguments_(call: Record<string, unknown>): unknown {
	const text = asString(asRecord(call.function)?.arguments);
	if (text === undefined) return asRecord(call.function)?.arguments;
	return parseJsonObject(text) ?? text;
}

/** The entries of one history item, chained after `parentId`; undefined for an item of no known shape. */
function itemEntries(item: Record<string, unknown>, id: string, parentId: string | null, state: ParseState): SessionEntry[] | undefined {
	const message = asRecord(item.message);
	if (!message) return undefined;
	const text = contentText(message.content);
	let parent = parentId;
	const place = (suffix = "") => ({ id: `${id}${suffix}`, parentId: parent, seq: state.nextSeq++ });
	if (typeof item.conversationSummary === "string") return [summaryEntry(place(), item.conversationSummary)];
	if (message.role === "user") return [userEntry(place(), text)];
	if (message.role === "system") return [metaEntry(place(), text)];
	if (message.role === "tool") return [toolResultEntry(place(), undefined, text)];
	if (message.role !== "assistant") return undefined;
	const blocks: PiBlock[] = text ? [{ type: "text", text }] : [];
	const names = new Map<string, string>();
	for (const raw of Array.isArray(message.toolCalls) ? message.toolCalls : []) {
		const call = asRecord(raw);
		const name = asString(asRecord(call?.function)?.name);
		if (!call || !name) continue;
		const callId = asString(call.id);
		if (callId) names.set(callId, name);
		blocks.push({ type: "toolCall", id: callId, name, arguments: arguments_(call) });
	}
	const answer = assistantEntry(place(), blocks, continueUsage(message.usage));
	const entries = [answer];
	parent = answer.id;
	for (const [i, raw] of (Array.isArray(item.toolCallStates) ? item.toolCallStates : []).entries()) {
		const tool = asRecord(raw);
		if (!tool) continue;
		const output = (Array.isArray(tool.output) ? tool.output : []).map((o) => asString(asRecord(o)?.content) ?? "").join("\n");
		const name = names.get(asString(tool.toolCallId) ?? "") ?? asString(asRecord(asRecord(tool.toolCall)?.function)?.name);
		const result = toolResultEntry(place(`-tool-${i}`), name, output, tool.status === "errored" || tool.status === "error");
		entries.push(result);
		parent = result.id;
	}
	return entries;
}

export const continueFormat: SessionFormat = {
	growth: "whole",
	parseLines(): ParsedChunk {
		// A session is one pretty-printed document (parseDocument): no line of it is a record of its own.
		return { entries: [], malformedLines: 0 };
	},
	parseDocument(bytes: Uint8Array, state: ParseState): ParsedChunk | undefined {
		const doc = parseJsonObject(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));
		if (!doc || !Array.isArray(doc.history)) return { entries: [], malformedLines: 1 };
		const sessionId = asString(doc.sessionId);
		if (sessionId && !state.header) state.header = { id: sessionId, version: 1, cwd: asString(doc.workspaceDirectory) };
		if (state.nextSeq === 0) state.nextSeq = 1;
		const entries: SessionEntry[] = [];
		let unknownRecords = 0;
		let parent: string | null = null;
		for (const [i, raw] of doc.history.entries()) {
			const item = asRecord(raw);
			const made: SessionEntry[] | undefined = item ? itemEntries(item, `${sessionId ?? "session"}-${i}`, parent, state) : undefined;
			if (!made) {
				unknownRecords++;
				continue;
			}
			entries.push(...made);
			parent = made.at(-1)?.id ?? parent;
		}
		const title = asString(doc.title);
		return {
			entries,
			malformedLines: 0,
			...(unknownRecords > 0 ? { unknownRecords } : {}),
			...(title && title !== UNTITLED ? { title } : {}),
		};
	},
	sniff(first: Record<string, unknown>): boolean {
		// A whole session read as one document: its id, its history and its folder.
		return typeof first.sessionId === "string" && Array.isArray(first.history) && "workspaceDirectory" in first;
	},
};
