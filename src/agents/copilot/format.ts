/**
 * GitHub Copilot CLI's sessions (`<copilot home>/session-state/<id>/events.jsonl`): one event a line, appended (a
 * `--resume` appends to the same file), `{type, id, parentId, timestamp, data}`. The events chain one after another
 * whoever wrote them: a sub-agent's (`agentId` set, spawned by a `task` call) are interleaved with its session's. So
 * the chain is made here: the session's own events follow each other, and each sub-agent's conversation hangs on a
 * side entry on the entry holding the call that spawned it (`SIDE_ENTRY_TYPE`, as Claude Code 1.0's sidechains),
 * never read as the conversation. Read: the prompts, the answers and their tool calls, the tools' results, the
 * token counts (`session.usage_record`, beside the answer), compactions' summaries, titles and rewinds; the system
 * prompt, turns, hooks and the like carry nothing to search. Read into Pi's entry shape.
 */

import { SIDE_ENTRY_TYPE } from "../../core/parse/branch.js";
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
	usageEntry,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The newest Copilot CLI release whose files were read in tests; a newer one is named once in the sync report. */
const COPILOT_TESTED_VERSION = "1.0.102";

/** What a parse carries from chunk to chunk (a grown file is read from its last byte). */
interface CopilotState {
	/** The last entry of the session's own conversation. */
	last: string | null;
	/** Each sub-agent's last entry, by its `agentId`. */
	agents: Map<string, string>;
	/** The entry holding each tool call, by its id (a sub-agent's side entry hangs on it). */
	calls: Map<string, string>;
	/** Tool names by call id, to name a result's tool. */
	tools: Map<string, string>;
	/** Each entry's parent, by event id (a rewind goes back to the parent of the first event it removes). */
	parents: Map<string, string | null>;
	/** The provider of the last model call (an answer's usage is recorded just before it, apart). */
	provider?: string;
	newestVersion?: string;
}

function copilotState(state: ParseState): CopilotState {
	state.format ??= { last: null, agents: new Map(), calls: new Map(), tools: new Map(), parents: new Map() } satisfies CopilotState;
	return state.format as CopilotState;
}

type Place = Parameters<typeof userEntry>[0];

/** Copilot's token counts in Pi's shape: its input tokens include those read from the cache. */
function copilotUsage(u: Record<string, unknown>, cs: CopilotState): Record<string, unknown> {
	const provider = u.isByok === true ? (asString(u.providerType) ?? asString(u.modelProvider)) : "github-copilot";
	cs.provider = provider;
	const usage = piUsage({
		input: minus(u.inputTokens, u.cacheReadTokens),
		output: u.outputTokens,
		cacheRead: u.cacheReadTokens ?? 0,
		cacheWrite: u.cacheWriteTokens ?? 0,
	});
	return { model: u.model, provider, usage };
}

/** The entry one event makes, or undefined for one that carries nothing to search. */
function eventEntry(obj: Record<string, unknown>, place: Place, cs: CopilotState): SessionEntry | undefined {
	const data = asRecord(obj.data) ?? {};
	switch (obj.type) {
		case "user.message":
			return userEntry(place, asString(data.content) ?? "");
		case "assistant.message": {
			const blocks: PiBlock[] = [];
			const text = asString(data.content);
			if (text) blocks.push({ type: "text", text });
			for (const raw of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
				const call = asRecord(raw);
				if (!call || typeof call.name !== "string") continue;
				const id = asString(call.toolCallId);
				if (id) {
					cs.calls.set(id, place.id);
					cs.tools.set(id, call.name);
				}
				blocks.push({ type: "toolCall", id, name: call.name, arguments: call.arguments });
			}
			return assistantEntry(place, blocks, { model: data.model, ...(cs.provider ? { provider: cs.provider } : {}) });
		}
		case "tool.execution_complete": {
			const id = asString(data.toolCallId);
			const result = asRecord(data.result);
			const error = asRecord(data.error);
			const text = asString(result?.content) ?? asString(error?.message) ?? asString(data.error) ?? "";
			return toolResultEntry(place, id ? cs.tools.get(id) : undefined, text, data.success === false);
		}
		case "session.usage_record": {
			const usage = asRecord(data.usage);
			return usage ? usageEntry(place, copilotUsage(usage, cs)) : undefined;
		}
		case "session.compaction_complete": {
			const summary = asString(data.summaryContent);
			return data.success !== false && summary ? compactionEntry(place, summary, place.id) : undefined;
		}
		default:
			return undefined;
	}
}

function readHeader(obj: Record<string, unknown>, state: ParseState, cs: CopilotState): string | undefined {
	const data = asRecord(obj.data) ?? {};
	const version = asString(data.copilotVersion);
	let newVersion: string | undefined;
	if (untestedVersion(version, COPILOT_TESTED_VERSION, cs.newestVersion)) {
		cs.newestVersion = version;
		newVersion = `GitHub Copilot CLI ${version}`;
	}
	const id = asString(data.sessionId);
	if (!state.header && id)
		state.header = {
			id,
			version: 1,
			timestamp: asString(data.startTime) ?? asString(obj.timestamp),
			cwd: asString(asRecord(data.context)?.cwd),
		};
	return newVersion;
}

export const copilotFormat: SessionFormat = {
	growth: "append",
	sideConversations: true,
	parseLines(lines: string[], state: ParseState, at?: LineOffsets): ParsedChunk {
		const cs = copilotState(state);
		if (state.nextSeq === 0) state.nextSeq = 1;
		const entries: SessionEntry[] = [];
		let malformedLines = 0;
		let title: string | undefined;
		let newVersion: string | undefined;
		for (const [i, line] of lines.entries()) {
			if (line.trim().length === 0) continue;
			const obj = parseJsonObject(line);
			const id = asString(obj?.id);
			if (!obj || typeof obj.type !== "string" || !id) {
				malformedLines++;
				continue;
			}
			if (obj.type === "session.start" || obj.type === "session.resume") newVersion = readHeader(obj, state, cs) ?? newVersion;
			const data = asRecord(obj.data) ?? {};
			if (obj.type === "session.title_changed") title = asString(data.title) ?? title;
			if (obj.type === "session.snapshot_rewind") {
				// The events from `upToEventId` on are gone from the conversation: it goes on from the entry before them.
				const from = asString(data.upToEventId);
				if (from && cs.parents.has(from)) cs.last = cs.parents.get(from) ?? null;
				continue;
			}
			const agentId = asString(obj.agentId);
			const timestamp = asString(obj.timestamp);
			if (agentId && !cs.agents.has(agentId)) {
				// A sub-agent's first event: its conversation opens beside the session's, on the call that spawned it.
				const callId = asString(data.toolCallId) ?? asString(data.parentToolCallId);
				const side = linkEntry(
					{ id: `${agentId}:${SIDE_ENTRY_TYPE}`, parentId: (callId && cs.calls.get(callId)) || cs.last, seq: state.nextSeq++, timestamp },
					SIDE_ENTRY_TYPE,
				);
				cs.agents.set(agentId, side.id);
				entries.push(side);
			}
			const parentId = agentId ? (cs.agents.get(agentId) ?? null) : cs.last;
			const entry = eventEntry(obj, { id, parentId, seq: state.nextSeq, timestamp }, cs);
			if (!entry) continue;
			state.nextSeq++;
			if (at) entry.range = { start: at.base + at.offsets[i], end: at.base + (at.offsets[i + 1] ?? at.consumedBytes) };
			cs.parents.set(id, parentId);
			if (agentId) cs.agents.set(agentId, id);
			else cs.last = id;
			entries.push(entry);
		}
		return { entries, malformedLines, ...(newVersion ? { newVersion } : {}), ...(title ? { title } : {}) };
	},
	sniff(first: Record<string, unknown>): boolean {
		// Its first event starts the session: `session.start` with the CLI's version.
		return first.type === "session.start" && typeof asRecord(first.data)?.copilotVersion === "string";
	},
	entriesOfLine(line: string): SessionEntry[] {
		const obj = parseJsonObject(line);
		const id = asString(obj?.id);
		if (!obj || !id) return [];
		const entry = eventEntry(
			obj,
			{ id, parentId: null, seq: 1, timestamp: asString(obj.timestamp) },
			copilotState({ nextSeq: 1, lastId: null }),
		);
		return entry ? [entry] : [];
	},
};
