/**
 * Amp's threads: one JSON document per thread, rewritten as the thread goes (`growth: "whole"`). Read from its
 * documented shape, as public readers of it read it — wesm/agentsview `internal/parser/amp.go` (id, created, title,
 * `env.initial.trees[0]`, messages by role), the casr Amp provider `src/providers/amp.rs` (Anthropic-style content
 * blocks `text`, `thinking`, `tool_use {id, name, input}`, tool results as `tool_result {toolUseID, run: {status,
 * result | progress}}` blocks of the next user message, `meta.sentAt`, an `info` message's `summary` block) and
 * noamsto/houston `docs/AMP_AGENT_SUPPORT.md` (`usage: {model, inputTokens, outputTokens, …}`) — never from files the
 * real CLI wrote here. Messages follow one another (Amp keeps no branches in a thread); thinking is never indexed.
 *
 * {"v":3,"id":"T-…","created":1767865803494,"title":"…","env":{"initial":{"trees":[{"uri":"file:///…"}]}},
 *  "messages":[{"role":"user","messageId":0,"content":[{"type":"text","text":"…"}],"meta":{"sentAt":…}},
 *              {"role":"assistant","messageId":1,"content":[{"type":"tool_use","id":"toolu_…","name":"Bash","input":{…}}],
 *               "usage":{"model":"…","inputTokens":…,"outputTokens":…,"cacheReadInputTokens":…,"cacheCreationInputTokens":…}},
 *              {"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"toolu_…","run":{"status":"done","result":…}}]}]}
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	type PiBlock,
	piUsage,
	plainText,
	summaryEntry,
	toolResultEntry,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** Content blocks Amp writes; any other type is counted unknown. */
const KNOWN_BLOCKS = new Set(["text", "thinking", "redacted_thinking", "tool_use", "tool_result", "image", "summary"]);

function isoTime(ms: unknown): string | undefined {
	return typeof ms === "number" && Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : undefined;
}

/** The project folder: `env.initial.cwd`, else the first tree's `file://` URI (or a plain path). */
function projectOf(thread: Record<string, unknown>): string | undefined {
	const initial = asRecord(asRecord(thread.env)?.initial);
	const cwd = asString(initial?.cwd);
	if (cwd) return cwd;
	for (const raw of Array.isArray(initial?.trees) ? initial.trees : []) {
		const uri = asRecord(raw)?.uri;
		const text = asString(uri) ?? asString(asRecord(uri)?.fsPath) ?? asString(asRecord(uri)?.path);
		if (!text) continue;
		if (!text.startsWith("file://")) return text;
		try {
			return decodeURIComponent(text.slice("file://".length).replace(/^localhost\//, "/"));
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/** What a tool run said: its progress or result as text, and whether it failed. */
function runOutput(run: Record<string, unknown> | undefined): { text: string; error: boolean } {
	const status = asString(run?.status) ?? "";
	const error = status === "error" || status === "cancelled" || status === "rejected-by-user";
	const shown = run?.result ?? run?.progress;
	const output = asRecord(shown)?.output;
	const text =
		typeof shown === "string"
			? shown
			: typeof output === "string"
				? output
				: Array.isArray(shown) && shown.every((s) => typeof s === "string")
					? shown.join("\n")
					: shown === undefined
						? status && `[${status}]`
						: plainText(shown) || JSON.stringify(shown);
	return { text, error };
}

/** Usage as Pi writes it: Amp's (Anthropic's) input tokens already leave the cache out. */
function usageOf(usage: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
	if (!usage) return undefined;
	return piUsage({
		input: usage.inputTokens,
		output: usage.outputTokens,
		cacheRead: usage.cacheReadInputTokens,
		cacheWrite: usage.cacheCreationInputTokens,
	});
}

function isThread(obj: Record<string, unknown>): boolean {
	return typeof obj.id === "string" && obj.id.startsWith("T-") && Array.isArray(obj.messages);
}

/** The entries of one thread. */
function readThread(thread: Record<string, unknown>, state: ParseState): ParsedChunk {
	const id = asString(thread.id) ?? "thread";
	const title = asString(thread.title)?.trim() || undefined;
	state.header ??= { id, version: 1, timestamp: isoTime(thread.created), cwd: projectOf(thread), ...(title ? { title } : {}) };
	if (state.nextSeq === 0) state.nextSeq = 1;
	const entries: SessionEntry[] = [];
	const place = (entryId: string, timestamp: string | undefined) => ({
		id: entryId,
		parentId: entries.at(-1)?.id ?? null,
		seq: state.nextSeq++,
		timestamp,
	});
	const toolNames = new Map<string, string>();
	let malformed = 0;
	let unknown = 0;
	for (const [index, raw] of (thread.messages as unknown[]).entries()) {
		const message = asRecord(raw);
		if (!message || !Array.isArray(message.content)) {
			malformed++;
			continue;
		}
		const messageId = `${id}#${typeof message.messageId === "number" ? message.messageId : `i${index}`}`;
		const timestamp = isoTime(asRecord(message.meta)?.sentAt);
		const texts: string[] = [];
		const calls: PiBlock[] = [];
		const results: { toolUseId: string | undefined; text: string; error: boolean }[] = [];
		let summary: string | undefined;
		for (const rawBlock of message.content) {
			const block = asRecord(rawBlock);
			const type = asString(block?.type);
			if (!block || !type) {
				malformed++;
				continue;
			}
			if (!KNOWN_BLOCKS.has(type)) unknown++;
			else if (type === "text" && typeof block.text === "string") texts.push(block.text);
			else if (type === "tool_use") {
				const name = asString(block.name) ?? "tool";
				const callId = asString(block.id);
				if (callId) toolNames.set(callId, name);
				calls.push({ type: "toolCall", id: callId, name, arguments: block.input });
			} else if (type === "tool_result") {
				const toolUseId = asString(block.toolUseID) ?? asString(block.tool_use_id);
				results.push({ toolUseId, ...runOutput(asRecord(block.run)) });
			} else if (type === "summary") {
				const s = asRecord(block.summary);
				summary = asString(s?.summary) ?? (asString(s?.thread) ? `[summary thread: ${s?.thread}]` : undefined);
			}
			// thinking is never indexed; an image holds nothing to search
		}
		const text = texts.join("\n").trim();
		if (message.role === "user") {
			if (text) entries.push(userEntry(place(messageId, timestamp), text));
			for (const [n, r] of results.entries())
				entries.push(
					toolResultEntry(
						place(r.toolUseId ?? `${messageId}#r${n}`, timestamp),
						r.toolUseId ? toolNames.get(r.toolUseId) : undefined,
						r.text,
						r.error,
					),
				);
		} else if (message.role === "assistant") {
			const usage = asRecord(message.usage);
			const stop = asString(asRecord(message.state)?.stopReason);
			entries.push(
				assistantEntry(place(messageId, timestamp), [...(text ? [{ type: "text" as const, text }] : []), ...calls], {
					model: asString(usage?.model),
					usage: usageOf(usage),
					stopReason: stop === "tool_use" ? "toolUse" : stop,
				}),
			);
		} else if (message.role === "info") {
			if (summary ?? text) entries.push(summaryEntry(place(messageId, timestamp), summary ?? text));
		} else unknown++;
	}
	return { entries, malformedLines: malformed, ...(unknown > 0 ? { unknownRecords: unknown } : {}), ...(title ? { title } : {}) };
}

export const ampFormat: SessionFormat = {
	growth: "whole",
	parseDocument(bytes, state) {
		const doc = parseJsonObject(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));
		if (!doc || !isThread(doc)) return { entries: [], malformedLines: 1 };
		return readThread(doc, state);
	},
	parseLines(lines, state) {
		// A thread is read whole (parseDocument); lines come only from a chunk that does not start the file.
		const doc = parseJsonObject(lines.join("\n"));
		return doc && isThread(doc) ? readThread(doc, state) : { entries: [], malformedLines: lines.filter((l) => l.trim()).length };
	},
	sniff: isThread,
};
