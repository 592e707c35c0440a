/**
 * Pi's session file format (v1, v2, v3) read into the one in-memory shape (core/parse/session-format.ts), which is
 * v3's tree. omp writes the same format with a title slot on line 1 (omp/title-slot.ts), folded into the header.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import type { ParsedChunk, ParseState, SessionEntry, SessionHeader } from "../../core/parse/session-format.js";
import { isTitleSlotLine, slotLineTitle } from "../omp/title-slot.js";

const CURRENT_SESSION_VERSION = 3;

function asString(v: unknown): string | undefined {
	return typeof v === "string" ? v : undefined;
}

function readHeader(obj: Record<string, unknown>): SessionHeader | undefined {
	if (obj.type !== "session" || typeof obj.id !== "string" || obj.id.length === 0) return undefined;
	return {
		id: obj.id,
		version: typeof obj.version === "number" ? obj.version : 1,
		timestamp: asString(obj.timestamp),
		cwd: asString(obj.cwd),
		parentSession: asString(obj.parentSession),
		title: asString(obj.title) || undefined,
	};
}

/** Deterministic id for an entry of a v1 file (Pi would assign random ids when it migrates the file). */
function legacyId(seq: number): string {
	return `v1${seq.toString(16).padStart(6, "0")}`;
}

/**
 * Parse the lines of one chunk, continuing `state` (mutated). Lines that are not JSON objects are skipped
 * and counted. v1 entries get ids chained to the previous entry; v2 `hookMessage` becomes `custom`.
 */
export function parseSessionLines(
	lines: string[],
	state: ParseState,
	at?: { offsets: number[]; consumedBytes: number; base: number },
): ParsedChunk {
	const entries: SessionEntry[] = [];
	let malformedLines = 0;
	let headerProblem: ParsedChunk["headerProblem"];
	for (const [i, line] of lines.entries()) {
		const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
		if (trimmed.trim().length === 0) continue;
		const obj = parseJsonObject(trimmed);
		if (!obj) {
			malformedLines++;
			continue;
		}
		if (state.nextSeq === 0 && isTitleSlotLine(obj)) {
			// omp's title slot (line 1): folded into the header.
			state.slotTitle = slotLineTitle(obj);
			continue;
		}
		if (obj.type === "session") {
			const header = readHeader(obj);
			if (!header) {
				malformedLines++;
				continue;
			}
			if (!state.header) {
				if (state.nextSeq > 0) headerProblem = "not-first";
				state.header = { ...header, title: state.slotTitle ?? header.title };
				if (state.nextSeq === 0) state.nextSeq = 1;
			}
			continue;
		}
		if (typeof obj.type !== "string") {
			malformedLines++;
			continue;
		}
		if (state.nextSeq === 0) state.nextSeq = 1;
		const seq = state.nextSeq++;
		const version = state.header?.version ?? CURRENT_SESSION_VERSION;
		const entry = version < 2 || typeof obj.id !== "string" ? migrateV1(obj, seq, state) : v2Entry(obj, seq);
		if (version < 3) migrateV2Message(entry);
		if (at) entry.range = { start: at.base + at.offsets[i], end: at.base + (at.offsets[i + 1] ?? at.consumedBytes) };
		state.lastId = entry.id;
		entries.push(entry);
	}
	if (!state.header && entries.length > 0) headerProblem = "missing";
	return { entries, malformedLines, headerProblem };
}

function v2Entry(obj: Record<string, unknown>, seq: number): SessionEntry {
	const parentId = typeof obj.parentId === "string" ? obj.parentId : null;
	return { type: obj.type as string, id: obj.id as string, parentId, timestamp: asString(obj.timestamp), seq, raw: obj };
}

function migrateV1(obj: Record<string, unknown>, seq: number, state: ParseState): SessionEntry {
	const id = legacyId(seq);
	const raw = { ...obj };
	state.idBySeq ??= new Map();
	state.idBySeq.set(seq, id);
	if (raw.type === "compaction" && typeof raw.firstKeptEntryIndex === "number") {
		const target = state.idBySeq.get(raw.firstKeptEntryIndex);
		if (target) raw.firstKeptEntryId = target;
	}
	return { type: raw.type as string, id, parentId: state.lastId, timestamp: asString(raw.timestamp), seq, raw };
}

function migrateV2Message(entry: SessionEntry): void {
	if (entry.type !== "message") return;
	const message = entry.raw.message as Record<string, unknown> | undefined;
	if (message && message.role === "hookMessage") entry.raw = { ...entry.raw, message: { ...message, role: "custom" } };
}

/** Pi's format (omp's too): append-only, read whole within `DEFAULTS.maxFileBytes`. */
export const piFormat: SessionFormat = { growth: "append", parseLines: parseSessionLines };
