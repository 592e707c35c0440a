/** Pi's session file format (v1, v2, v3) read into one in-memory shape; session files are never written. */

import { isTitleSlotLine, slotLineTitle } from "../../agents/omp/title-slot.js";
import { parseJsonObject } from "./jsonl.js";

const CURRENT_SESSION_VERSION = 3;

interface SessionHeader {
	id: string;
	version: number;
	timestamp?: string;
	cwd?: string;
	parentSession?: string;
	/** omp: the session title (title slot on line 1, or the header's title). */
	title?: string;
	/** A sub-agent transcript that names the session that spawned it only by id (its file is a sibling `<id>.jsonl`). */
	spawnedById?: string;
}

/** A tree entry after migration to v3: every entry has an id and a parentId. */
export interface SessionEntry {
	type: string;
	id: string;
	parentId: string | null;
	timestamp?: string;
	/** Position in the file: the header is 0, the first entry 1. */
	seq: number;
	raw: Record<string, unknown>;
	/** Byte range [start, end) of the entry's line in its file, when known. */
	range?: { start: number; end: number };
	/** A tool result whose whole output the agent kept in a file beside the session (path relative to the session root). */
	spilled?: string;
	/**
	 * What names this entry's usage wherever it is copied, when its id and time do not (by default a message copied
	 * into a fork keeps both, and counts once): Codex's token counts, named by the thread's running totals.
	 */
	usageKey?: string;
}

/** What a parse carries from one chunk of a file to the next (a grown file is parsed from where it stopped). */
export interface ParseState {
	header?: SessionHeader;
	nextSeq: number;
	/** Id of the previous entry, for v1 files whose entries have no ids. */
	lastId: string | null;
	/** v1 compaction targets are line indexes: seq → id of the entries seen so far. */
	idBySeq?: Map<number, string>;
	/** omp's title slot, until the header is read. */
	slotTitle?: string;
	/** What another agent's format carries from one chunk to the next of the same parse (its own shape). */
	format?: unknown;
}

export interface ParsedChunk {
	entries: SessionEntry[];
	malformedLines: number;
	/** The header was missing or not the first line. */
	headerProblem?: "missing" | "not-first";
	/** Records of a type this lookback does not know: skipped and counted (never fatal). */
	unknownRecords?: number;
	/** A format version newer than any tested, read as far as it is understood: named once in the sync report. */
	newVersion?: string;
	/** A session title found in this chunk (formats that keep titles outside the tree of entries). */
	title?: string;
}

export function newParseState(): ParseState {
	return { nextSeq: 0, lastId: null };
}

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

/** The session id Pi puts in a file name: `<timestamp>_<id>.jsonl`. */
export function sessionIdFromFileName(path: string): string | undefined {
	const base = path.split(/[\\/]/).pop() ?? path;
	// Pi: `<timestamp>_<id>.jsonl`; Claude Code: `<uuid>.jsonl`; Codex: `rollout-<timestamp>-<uuid>.jsonl[.zst]`;
	// OpenCode: `<database>/ses_<id>`, or `ses_<id>.json` in its JSON tree.
	const m =
		/_([0-9a-fA-F-]{8,})\.jsonl$/.exec(base) ??
		/^(ses_[0-9A-Za-z]+)(?:\.json)?$/.exec(base) ??
		/^(?:rollout-.*-)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i.exec(base);
	return m ? m[1] : undefined;
}
