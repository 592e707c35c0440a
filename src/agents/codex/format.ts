/**
 * Codex CLI's rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl[.zst]`): one record a line,
 * `{timestamp, type, payload}` (`session_meta`, `response_item`, `event_msg`, `turn_context`, `compacted`, …),
 * or, before September 2025, bare response items after a `{id, timestamp, instructions}` first line. Codex
 * keeps no entry ids: each entry is named by its line's byte offset and hangs on the entry before it, so the
 * whole file is one branch but for what a compaction or a rollback leaves behind. Read into Pi's entry shape.
 */

import type { LineOffsets, SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	compactionEntry,
	linkEntry,
	metaEntry,
	type PiBlock,
	toolResultEntry,
	untestedVersion,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";
import { type CodexState, codexState, type LineContext, type Place } from "./state.js";
import { contentText, isInjected, outputFailed, outputText, parsedArguments } from "./text.js";
import { answer, difference, totalsKey, usageFor } from "./usage.js";

/** The newest Codex CLI release whose files were read in tests; a newer one is named once in the sync report. */
const CODEX_TESTED_VERSION = "0.171.0";

/** Envelope records with nothing to search (settings, usage, world state of newer releases). */
const ENVELOPE_SKIPPED = new Set([
	"turn_context",
	"world_state",
	"token_usage_record",
	"inter_agent_communication",
	"inter_agent_communication_metadata",
	"retained_context",
	"security_risk_score",
	"realtime_item",
]);

/** Response items with nothing to search: the model's reasoning is never indexed; searches and images are not text. */
const ITEMS_SKIPPED = new Set([
	"reasoning",
	"web_search_call",
	"tool_search_call",
	"tool_search_output",
	"image_generation_call",
	"compaction",
	"ghost_snapshot",
	"other",
]);

export const codexFormat: SessionFormat = {
	growth: "append",
	positionalIds: true,
	parseLines(lines: string[], state: ParseState, at?: LineOffsets): ParsedChunk {
		const cs = codexState(state);
		if (state.nextSeq === 0) state.nextSeq = 1;
		// An answer of an earlier chunk is written already: usage reported now comes as an entry of its own.
		cs.answer = undefined;
		const entries: SessionEntry[] = [];
		let malformedLines = 0;
		let unknownRecords = 0;
		let newVersion: string | undefined;
		for (const [i, line] of lines.entries()) {
			if (line.trim().length === 0) continue;
			const lineNo = cs.lines++;
			const obj = parseJsonObject(line);
			if (!obj) {
				malformedLines++;
				continue;
			}
			const offset = at ? at.base + at.offsets[i] : undefined;
			const id = offset !== undefined ? `o${offset.toString(36)}` : `n${lineNo.toString(36)}`;
			const version = readMeta(obj, state, cs);
			if (untestedVersion(version, CODEX_TESTED_VERSION, cs.newestVersion)) {
				cs.newestVersion = version;
				newVersion = `Codex ${version}`;
			}
			const made = recordEntries(obj, { state, cs, id, timestamp: asString(obj.timestamp) });
			if (made === "unknown") unknownRecords++;
			else if (made) {
				if (at && offset !== undefined) made.range = { start: offset, end: at.base + (at.offsets[i + 1] ?? at.consumedBytes) };
				state.lastId = made.id;
				entries.push(made);
			}
		}
		const title = cs.title;
		cs.title = undefined;
		return {
			entries,
			malformedLines,
			...(unknownRecords > 0 ? { unknownRecords } : {}),
			...(newVersion ? { newVersion } : {}),
			...(title ? { title } : {}),
		};
	},
	sniff(first: Record<string, unknown>): boolean {
		// A rollout starts with its session_meta, or (before September 2025) a bare `{id, timestamp, instructions}`.
		if (first.type === "session_meta") return typeof asRecord(first.payload)?.id === "string";
		return first.type === undefined && typeof first.id === "string" && "timestamp" in first && "instructions" in first;
	},
	longLine(head: string, start: number, state: ParseState): SessionEntry | undefined {
		// A compaction whose replacement history repeats inline images can run to hundreds of MB: its head still says what it was.
		const cs = codexState(state);
		cs.lines++;
		if (cs.replay || !/^\{[^{]{0,200}"type"\s*:\s*"compacted"/.test(head)) return undefined;
		const message = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(head)?.[1];
		let summary = "";
		try {
			summary = message ? (JSON.parse(`"${message}"`) as string) : "";
		} catch {
			summary = "";
		}
		const id = `o${start.toString(36)}`;
		const timestamp = /"timestamp"\s*:\s*"([^"]+)"/.exec(head)?.[1];
		cs.turns = [];
		return compactionEntry({ id, parentId: state.lastId, seq: state.nextSeq++, timestamp }, summary, id);
	},
	entriesOfLine(line: string): SessionEntry[] {
		const obj = parseJsonObject(line);
		if (!obj) return [];
		const state: ParseState = { nextSeq: 1, lastId: null };
		const made = recordEntries(obj, { state, cs: codexState(state), id: "n0", timestamp: asString(obj.timestamp) });
		return typeof made === "object" && made ? [made] : [];
	},
};

/**
 * The session's header from its first `session_meta` (or the older first line `{id, timestamp, instructions}`);
 * a later `session_meta` of another thread starts the parent's replayed history. Returns the CLI's version.
 */
function readMeta(obj: Record<string, unknown>, state: ParseState, cs: CodexState): string | undefined {
	const legacyHeader = obj.type === undefined && obj.record_type === undefined && typeof obj.id === "string" && "timestamp" in obj;
	if (obj.type !== "session_meta" && !legacyHeader) return undefined;
	const meta = legacyHeader ? obj : asRecord(obj.payload);
	const id = asString(meta?.id);
	if (!meta || !id) return undefined;
	if (state.header) {
		// A fork or sub-agent begins by replaying its parent's history, parent's session_meta first: skipped, it is indexed in the parent.
		if (id !== state.header.id && id !== cs.ownId) cs.replay = true;
		return undefined;
	}
	cs.ownId = id;
	const source = asRecord(meta.source);
	const spawn = asRecord(asRecord(source?.subagent)?.thread_spawn);
	const spawner = asString(spawn?.parent_thread_id) ?? (source?.subagent !== undefined ? asString(meta.parent_thread_id) : undefined);
	const forkedFrom = asString(meta.forked_from_id);
	cs.provider = asString(meta.model_provider) ?? cs.provider;
	if (typeof meta.subagent_history_start_ordinal === "number") cs.ownFrom = meta.subagent_history_start_ordinal;
	state.header = {
		id,
		version: 1,
		timestamp: asString(meta.timestamp) ?? asString(obj.timestamp),
		cwd: asString(meta.cwd),
		...(spawner ? { spawnedById: spawner } : forkedFrom ? { parentSession: forkedFrom } : {}),
	};
	return asString(meta.cli_version);
}

/**
 * Whether a record is part of a replayed parent history (skipped), and the end of that history: 0.17x names the
 * sub-agent's first own ordinal and its thread in its records; 0.128 names neither, and its own records begin with
 * a turn of its own (see ownTurn). The parent's running totals are kept: the sub-agent's carry on from them.
 */
function replayed(obj: Record<string, unknown>, cs: CodexState): boolean {
	if (!cs.replay) return false;
	const ordinal = typeof obj.ordinal === "number" ? obj.ordinal : undefined;
	const payload = asRecord(obj.payload);
	const own =
		(cs.ownFrom !== undefined && ordinal !== undefined && ordinal >= cs.ownFrom) ||
		(cs.ownId !== undefined && (payload?.thread_id === cs.ownId || asRecord(payload?.item)?.thread_id === cs.ownId)) ||
		(obj.type === "event_msg" && ownTurn(payload, cs));
	if (own) {
		cs.replay = false;
		return false;
	}
	if (obj.type === "event_msg" && payload?.type === "token_count")
		cs.totals = asRecord(asRecord(payload.info)?.total_token_usage) ?? cs.totals;
	return true;
}

/** Time-ordered ids (UUIDv7, as Codex makes its thread and turn ids): a later one sorts after. */
const TIME_ORDERED = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/i;

/**
 * Whether an event of a replayed history starts the sub-agent's or fork's own first turn: a turn made after the
 * thread was (its id sorts after the thread's), or, where ids are not time-ordered, a turn that starts while the
 * replayed one is still open (a sub-agent is spawned inside its parent's turn).
 */
function ownTurn(event: Record<string, unknown> | undefined, cs: CodexState): boolean {
	const type = event?.type;
	if (type === "task_complete" || type === "turn_complete" || type === "turn_aborted") cs.replayedTurnOpen = false;
	if (type !== "task_started" && type !== "turn_started") return false;
	const turn = asString(event?.turn_id);
	const own =
		turn && cs.ownId && TIME_ORDERED.test(turn) && TIME_ORDERED.test(cs.ownId)
			? turn.toLowerCase() > cs.ownId.toLowerCase()
			: cs.replayedTurnOpen === true;
	cs.replayedTurnOpen = true;
	return own;
}

/** The entry one record makes: none for bookkeeping and skipped records, "unknown" for a type never seen. */
function recordEntries(obj: Record<string, unknown>, c: LineContext): SessionEntry | "unknown" | undefined {
	const type = obj.type;
	if (type === "session_meta" || replayed(obj, c.cs)) return undefined;
	// The older format: `{"record_type":"state"}` lines, the header line, and bare response items.
	if (type === undefined) return obj.record_type !== undefined || typeof obj.id === "string" ? undefined : "unknown";
	if (typeof type !== "string") return "unknown";
	const place = (): Place => ({ id: c.id, parentId: c.state.lastId, seq: c.state.nextSeq++, timestamp: c.timestamp });
	const payload = asRecord(obj.payload);
	switch (type) {
		case "response_item":
			return payload ? responseItem(payload, c, place) : "unknown";
		case "event_msg":
			return payload ? eventMessage(payload, c, place) : "unknown";
		case "turn_context":
			c.cs.model = asString(payload?.model) ?? c.cs.model;
			return undefined;
		case "token_usage_record": {
			// One response's usage, named by the thread's totals after it (what a `token_count` of the same response names too).
			c.cs.records = true;
			const thread = asString(payload?.thread_id) ?? c.cs.ownId ?? c.state.header?.id ?? "";
			return usageFor(c, place, asRecord(payload?.usage), totalsKey(thread, asRecord(payload?.thread_token_usage)));
		}
		case "compacted": {
			// Codex's context starts again from the summary: everything before it is compacted.
			const e = compactionEntry(place(), asString(payload?.message) ?? "", c.id);
			c.cs.turns = [];
			return e;
		}
		default:
			if (ENVELOPE_SKIPPED.has(type)) return undefined;
			// An envelope-less response item of the older format.
			if (
				obj.payload === undefined &&
				(type === "message" || type.endsWith("_call") || type.endsWith("_output") || ITEMS_SKIPPED.has(type))
			)
				return responseItem(obj, c, place);
			return "unknown";
	}
}

function responseItem(item: Record<string, unknown>, c: LineContext, place: () => Place): SessionEntry | "unknown" | undefined {
	const type = asString(item.type);
	if (!type) return "unknown";
	if (ITEMS_SKIPPED.has(type)) return undefined;
	switch (type) {
		case "message": {
			const text = contentText(item.content);
			if (!text) return undefined;
			if (item.role === "assistant") return answer(c, assistantEntry(place(), [{ type: "text", text }]));
			if (item.role === "user" && !isInjected(text)) return prompt(text, c, place);
			if (item.role === "user" || item.role === "developer" || item.role === "system") {
				if (!c.state.header?.cwd) {
					const cwd = /<cwd>([^<]+)<\/cwd>/.exec(text)?.[1];
					if (cwd && c.state.header) c.state.header.cwd = cwd.trim();
				}
				return metaEntry(place(), text);
			}
			return "unknown";
		}
		case "function_call":
		case "custom_tool_call":
		case "local_shell_call": {
			const callId = asString(item.call_id) ?? asString(item.id);
			const name = asString(item.name) ?? (type === "local_shell_call" ? "local_shell" : type);
			if (callId) c.cs.toolNames.set(callId, name);
			const args =
				type === "function_call" ? parsedArguments(item.arguments) : type === "custom_tool_call" ? { input: item.input } : item.action;
			const block: PiBlock = { type: "toolCall", id: callId, name, arguments: args };
			return answer(c, assistantEntry(place(), [block]));
		}
		case "function_call_output":
		case "custom_tool_call_output": {
			const callId = asString(item.call_id);
			const output = item.output;
			return toolResultEntry(place(), callId ? c.cs.toolNames.get(callId) : undefined, outputText(output), outputFailed(output));
		}
		default:
			return "unknown";
	}
}

/** The person's words, once: Codex mirrors a prompt as a response item and as an event. */
function prompt(text: string, c: LineContext, place: () => Place): SessionEntry | undefined {
	const recent = c.cs.recentPrompts;
	const seen = recent.indexOf(text);
	if (seen >= 0) {
		recent.splice(seen, 1);
		return undefined;
	}
	recent.push(text);
	if (recent.length > 4) recent.shift();
	c.cs.turns.push(c.state.lastId);
	return userEntry(place(), text);
}

function eventMessage(event: Record<string, unknown>, c: LineContext, place: () => Place): SessionEntry | undefined {
	switch (event.type) {
		case "user_message": {
			const text = asString(event.message) ?? "";
			const images = Array.isArray(event.images) && event.images.length > 0 ? "\n[image]" : "";
			return text || images ? prompt(`${text}${images}`.trim(), c, place) : undefined;
		}
		case "item_completed": {
			// 0.17x mirrors the prompt as a completed UserMessage item (paginated history).
			const item = asRecord(event.item);
			if (item?.type !== "UserMessage") return undefined;
			const text = contentText(item.content);
			return text && !isInjected(text) ? prompt(text, c, place) : undefined;
		}
		case "thread_name_updated": {
			// A name given to the thread (`/rename`): the session's title, the last one winning.
			const name = asString(event.thread_name);
			if (name && (event.thread_id === undefined || event.thread_id === c.cs.ownId)) c.cs.title = name;
			return undefined;
		}
		case "token_count": {
			if (c.cs.records) return undefined;
			// Before 0.17x: the thread's running totals after each response; the last response's own counts beside them.
			const info = asRecord(event.info);
			const totals = asRecord(info?.total_token_usage);
			if (!totals) return undefined;
			const last = c.cs.totals ? difference(totals, c.cs.totals) : asRecord(info?.last_token_usage);
			c.cs.totals = totals;
			return usageFor(c, place, last, totalsKey(c.cs.ownId ?? c.state.header?.id ?? "", totals));
		}
		case "thread_rolled_back": {
			// The last n turns are dropped: what follows hangs where they began, and they are left abandoned.
			const n = typeof event.num_turns === "number" ? Math.max(0, Math.floor(event.num_turns)) : 0;
			if (n === 0 || c.cs.turns.length === 0) return undefined;
			const back = c.cs.turns.splice(Math.max(0, c.cs.turns.length - n))[0];
			const e = linkEntry({ ...place(), parentId: back }, "rollback");
			return e;
		}
		default:
			// Everything else (token counts, task start and end, the agent's message mirrored) is already in the response items.
			return undefined;
	}
}
