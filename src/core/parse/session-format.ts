/**
 * The one in-memory shape every agent's records are read into: the entries of Pi's session tree (Pi's own format,
 * v1 to v3, is read by src/agents/pi/format.ts). Session files are never written.
 */

import { AGENT_FACTS } from "../../agents/registry.js";

export interface SessionHeader {
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

/** The session id a file's name carries, in any agent's naming (`AgentFacts.idFromFileName`). */
export function sessionIdFromFileName(path: string): string | undefined {
	const base = path.split(/[\\/]/).pop() ?? path;
	for (const agent of AGENT_FACTS) {
		const id = agent.idFromFileName?.(base);
		if (id !== undefined) return id;
	}
	return undefined;
}
