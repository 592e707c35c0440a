/**
 * Qwen Code's chats (`<runtime dir>/projects/<project>/chats/<session id>.jsonl`, sub-agents in
 * `subagents/<session id>/agent-<agent id>.jsonl`): one JSON record a line, appended (a resume with `--continue` or
 * `--resume` appends to the same file), a tree through `uuid` → `parentUuid` (a rewind hangs the next turn on an
 * earlier record, leaving what followed on a dead branch). Records are `user`, `assistant` (Gemini's `parts`: text and
 * `functionCall`, with `usageMetadata`), `tool_result` (`functionResponse` parts) and `system` (a `subtype`: the
 * session's title in `custom_title`, a compression's new history in `chat_compression`, telemetry and snapshots that
 * carry nothing to search but still link the tree). A sub-agent's lines name the session that spawned it and its own
 * `agentId`. Read into Pi's entry shape.
 */

import type { LineOffsets, SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	compactionEntry,
	linkEntry,
	minus,
	type PiBlock,
	piUsage,
	toolResultEntry,
	untestedVersion,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The newest Qwen Code release whose files were read in tests; a newer one is named once in the sync report. */
const QWEN_TESTED_VERSION = "0.24.4";

const TYPES = new Set(["user", "assistant", "tool_result", "system"]);

interface QwenState {
	newestVersion?: string;
}

function qwenState(state: ParseState): QwenState {
	state.format ??= {} satisfies QwenState;
	return state.format as QwenState;
}

function partsOf(message: unknown): Record<string, unknown>[] {
	const parts = asRecord(message)?.parts;
	return Array.isArray(parts) ? parts.map(asRecord).filter((p): p is Record<string, unknown> => p !== undefined) : [];
}

/** The text of a message's parts, thoughts left out, an image as `[image]`. */
function partsText(parts: Record<string, unknown>[]): string {
	const texts: string[] = [];
	for (const part of parts) {
		if (typeof part.text === "string" && part.thought !== true) texts.push(part.text);
		else if (part.inlineData || part.fileData) texts.push("[image]");
	}
	return texts.join("\n");
}

/** What a tool returned: its `output`, else its error, else the whole response. */
function responseText(response: unknown): string {
	const r = asRecord(response);
	if (!r) return typeof response === "string" ? response : "";
	if (typeof r.output === "string") return r.output;
	if (typeof r.error === "string") return r.error;
	return JSON.stringify(r);
}

/** Gemini's token counts in Pi's shape: the prompt includes what was read from the cache; thoughts are billed as output. */
function qwenUsage(metadata: unknown): Record<string, unknown> {
	const t = asRecord(metadata);
	if (!t) return {};
	const output =
		typeof t.candidatesTokenCount === "number" && typeof t.thoughtsTokenCount === "number"
			? t.candidatesTokenCount + t.thoughtsTokenCount
			: t.candidatesTokenCount;
	const cached = t.cachedContentTokenCount ?? 0;
	return { usage: piUsage({ input: minus(t.promptTokenCount, cached), output, cacheRead: cached, cacheWrite: 0 }) };
}

type Place = Parameters<typeof userEntry>[0];

/** The entries one record makes (undefined for a type never seen), and a title when it names one. */
function recordEntries(obj: Record<string, unknown>, state: ParseState): { entry?: SessionEntry; title?: string } | undefined {
	const type = obj.type as string;
	const uuid = asString(obj.uuid);
	if (!uuid || !TYPES.has(type)) return undefined;
	readHeader(obj, state);
	const place: Place = { id: uuid, parentId: asString(obj.parentUuid) ?? null, seq: state.nextSeq++, timestamp: asString(obj.timestamp) };
	const parts = partsOf(obj.message);
	if (type === "user") return { entry: userEntry(place, partsText(parts)) };
	if (type === "assistant") {
		const blocks: PiBlock[] = [];
		for (const part of parts) {
			if (typeof part.text === "string" && part.thought !== true && part.text.length > 0) blocks.push({ type: "text", text: part.text });
			const call = asRecord(part.functionCall);
			if (call && typeof call.name === "string")
				blocks.push({ type: "toolCall", id: asString(call.id), name: call.name, arguments: call.args });
		}
		return { entry: assistantEntry(place, blocks, { model: obj.model, ...qwenUsage(obj.usageMetadata) }) };
	}
	if (type === "tool_result") {
		const responses = parts.map((p) => asRecord(p.functionResponse)).filter((r): r is Record<string, unknown> => r !== undefined);
		const result = asRecord(obj.toolCallResult);
		const texts = responses.map((r) => responseText(r.response));
		// A sub-agent's result: its transcript is `agent-<type>-<call id>.jsonl`, named here so the spawning call is found by it.
		const display = asRecord(result?.resultDisplay);
		const callId = asString(result?.callId);
		if (display?.type === "task_execution" && typeof display.subagentName === "string" && callId)
			texts.push(`agent-${display.subagentName}-${callId}`);
		const error = result?.status === "error" || responses.some((r) => asRecord(r.response)?.error !== undefined);
		return { entry: toolResultEntry(place, asString(responses[0]?.name), texts.join("\n"), error) };
	}
	const payload = asRecord(obj.systemPayload);
	if (obj.subtype === "custom_title") return { entry: linkEntry(place, "system"), title: asString(payload?.customTitle) };
	if (obj.subtype === "chat_compression") {
		// The new history the model is given from here: its first message holds the summary of what came before.
		const history = Array.isArray(payload?.compressedHistory) ? payload.compressedHistory : [];
		return { entry: compactionEntry(place, partsText(partsOf(history[0])), uuid) };
	}
	// Telemetry, snapshots, the session's model: nothing to search, but the next record may hang on it.
	return { entry: linkEntry(place, "system") };
}

export const qwenFormat: SessionFormat = {
	growth: "append",
	// Ids are UUIDs: a forked session (`--fork-session`) copies its parent's records, indexed once.
	sharedIds: true,
	parseLines(lines: string[], state: ParseState, at?: LineOffsets): ParsedChunk {
		const qs = qwenState(state);
		if (state.nextSeq === 0) state.nextSeq = 1;
		const entries: SessionEntry[] = [];
		let malformedLines = 0;
		let unknownRecords = 0;
		let title: string | undefined;
		let newVersion: string | undefined;
		for (const [i, line] of lines.entries()) {
			if (line.trim().length === 0) continue;
			const obj = parseJsonObject(line);
			if (!obj || typeof obj.type !== "string") {
				malformedLines++;
				continue;
			}
			const version = asString(obj.version);
			if (untestedVersion(version, QWEN_TESTED_VERSION, qs.newestVersion)) {
				qs.newestVersion = version;
				newVersion = `Qwen Code ${version}`;
			}
			const made = recordEntries(obj, state);
			if (!made) {
				unknownRecords++;
				continue;
			}
			if (made.title) title = made.title;
			if (made.entry) {
				if (at) made.entry.range = { start: at.base + at.offsets[i], end: at.base + (at.offsets[i + 1] ?? at.consumedBytes) };
				entries.push(made.entry);
			}
		}
		return {
			entries,
			malformedLines,
			...(unknownRecords > 0 ? { unknownRecords } : {}),
			...(newVersion ? { newVersion } : {}),
			...(title ? { title } : {}),
		};
	},
	sniff(first: Record<string, unknown>): boolean {
		// Every line names its session, its uuid and how it came to be (`provenance`), and a user's or model's message
		// holds Gemini's `parts`; Claude Code's lines have no provenance.
		return (
			typeof first.type === "string" &&
			typeof first.sessionId === "string" &&
			(typeof first.provenance === "string" || Array.isArray(asRecord(first.message)?.parts))
		);
	},
	entriesOfLine(line: string): SessionEntry[] {
		const obj = parseJsonObject(line);
		if (!obj) return [];
		const made = recordEntries(obj, { nextSeq: 1, lastId: null });
		return made?.entry ? [made.entry] : [];
	},
};

/** The session's id, folder and start from its first record; a sub-agent's own id is `agent-<agentId>`. */
function readHeader(obj: Record<string, unknown>, state: ParseState): void {
	if (state.header) return;
	const sessionId = asString(obj.sessionId);
	if (!sessionId) return;
	const agentId = asString(obj.agentId);
	state.header = {
		id: agentId ? `agent-${agentId}` : sessionId,
		version: 1,
		timestamp: asString(obj.timestamp),
		cwd: asString(obj.cwd),
		...(agentId ? { spawnedById: sessionId } : {}),
	};
}
