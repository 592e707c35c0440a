/**
 * Factory Droid's session files (0.215): a `session_start` line (`id`, `title`, `cwd`, `version`), then `message` lines
 * (`id`, `parentId`, `message{role, content[]}`) whose blocks are Anthropic's (`text`, `tool_use`, `tool_result`, in
 * user messages), and bookkeeping (`agent_turn_outcome`, …). A user message whose id starts `context-` is what Droid
 * put in the model's context (its `<system-reminder>`): meta. A message's entries chain one after the other, the last
 * taking its id, so a reply that names it follows all of them. Appended only.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	linkEntry,
	metaEntry,
	type PiBlock,
	plainText,
	toolResultEntry,
	untestedVersion,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The newest Droid whose files were read in tests (test/agents/droid-cli.test.ts), and its file version. */
const DROID_TESTED_FILE_VERSION = "2";

/** Line types that hold nothing to search. */
const BOOKKEEPING = new Set(["agent_turn_outcome", "todo_state", "session_settings", "compaction_state"]);

/** Tool names by call id, across the chunks of one parse. */
function toolNames(state: ParseState): Map<string, string> {
	if (!(state.format instanceof Map)) state.format = new Map<string, string>();
	return state.format as Map<string, string>;
}

type Make = (place: { id: string; parentId: string | null; seq: number; timestamp?: string }) => SessionEntry;

/** The entries of one message line, chained: the first follows the line's parent, the last takes the line's id. */
function chained(id: string, parentId: string | null, timestamp: string | undefined, makes: Make[], state: ParseState): SessionEntry[] {
	const out: SessionEntry[] = [];
	makes.forEach((make, i) => {
		const place = {
			id: i === makes.length - 1 ? id : `${id}#${i}`,
			parentId: out.at(-1)?.id ?? parentId,
			seq: state.nextSeq++,
			timestamp,
		};
		out.push(make(place));
	});
	return out;
}

function messageLine(obj: Record<string, unknown>, state: ParseState): SessionEntry[] | undefined {
	const id = asString(obj.id);
	const message = asRecord(obj.message);
	if (!id || !message) return undefined;
	const parentId = asString(obj.parentId) ?? null;
	const timestamp = asString(obj.timestamp);
	const blocks = Array.isArray(message.content) ? message.content.map(asRecord) : [];
	const makes: Make[] = [];
	if (message.role === "user") {
		const texts: string[] = [];
		for (const block of blocks) {
			if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
			else if (block?.type === "tool_result") {
				const name = toolNames(state).get(asString(block.tool_use_id) ?? "");
				makes.push((p) => toolResultEntry(p, name, plainText(block.content), block.is_error === true));
			}
		}
		const text = texts.join("\n").trim();
		if (text) makes.unshift((p) => (id.startsWith("context-") ? metaEntry(p, text) : userEntry(p, text)));
	} else if (message.role === "assistant") {
		const pi: PiBlock[] = [];
		for (const block of blocks) {
			if (block?.type === "text" && typeof block.text === "string") pi.push({ type: "text", text: block.text });
			else if (block?.type === "tool_use") {
				const name = asString(block.name) ?? "tool";
				const callId = asString(block.id);
				if (callId) toolNames(state).set(callId, name);
				pi.push({ type: "toolCall", id: callId, name, arguments: block.input });
			}
		}
		makes.push((p) => assistantEntry(p, pi, { model: asString(message.modelId), timestamp }));
	} else return undefined;
	if (makes.length === 0) makes.push((p) => linkEntry(p, "message"));
	return chained(id, parentId, timestamp, makes, state);
}

function parseLines(lines: string[], state: ParseState): ParsedChunk {
	const entries: SessionEntry[] = [];
	let malformed = 0;
	let unknown = 0;
	let newVersion: string | undefined;
	for (const line of lines) {
		if (!line.trim()) continue;
		const obj = parseJsonObject(line);
		if (!obj || typeof obj.type !== "string") {
			malformed++;
			continue;
		}
		if (state.nextSeq === 0) state.nextSeq = 1;
		if (obj.type === "session_start") {
			const version = typeof obj.version === "number" ? obj.version : undefined;
			if (!state.header && typeof obj.id === "string")
				state.header = { id: obj.id, version: version ?? 1, cwd: asString(obj.cwd), title: asString(obj.title) || undefined };
			if (untestedVersion(version === undefined ? undefined : String(version), DROID_TESTED_FILE_VERSION, undefined))
				newVersion = `Factory Droid session file version ${version}`;
			continue;
		}
		if (obj.type === "message") {
			const made = messageLine(obj, state);
			if (made) entries.push(...made);
			else malformed++;
		} else if (!BOOKKEEPING.has(obj.type)) unknown++;
	}
	return {
		entries,
		malformedLines: malformed,
		...(unknown > 0 ? { unknownRecords: unknown } : {}),
		...(newVersion ? { newVersion } : {}),
		...(state.header?.title ? { title: state.header.title } : {}),
	};
}

export const droidFormat: SessionFormat = {
	growth: "append",
	sharedIds: true,
	parseLines,
	sniff: (first) => first.type === "session_start" && typeof first.id === "string" && typeof first.hostId === "string",
};
