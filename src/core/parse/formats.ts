/**
 * Every agent's session format behind one shape: bytes of a file (or of its new tail) → entries in the shape
 * of Pi's tree (`SessionEntry`), which the rest of the pipeline (branches, searchable text, the writer) knows.
 * Each agent's folder reads its own format (`AgentReader.format`, src/agents/); this file only picks it and cuts the
 * bytes into lines.
 */

import { piFormat } from "../../agents/pi/format.js";
import { AGENT_READERS, readerOf } from "../../agents/readers.js";
import type { AgentKind } from "../../agents/registry.js";
import { parseJsonObject, splitLines } from "./jsonl.js";
import type { ParsedChunk, ParseState } from "./session-format.js";

/** Where each line of a chunk starts, so an entry made of one line keeps its byte range (snippets of long entries). */
export interface LineOffsets {
	offsets: number[];
	consumedBytes: number;
	base: number;
}

export interface SessionFormat {
	/**
	 * "append": the agent only appends, so a grown file is read from its last consumed byte; "whole": records
	 * are rewritten or superseded (Gemini's last-wins records, a database export), so any change reads it again.
	 */
	growth: "append" | "whole";
	/**
	 * Its entry ids are unique across files (UUIDs), so one id in two files of a project is one message copied (Claude
	 * Code's resume before 2.x wrote the history into the new file, its forks still do): indexed once (sync/copies.ts).
	 */
	sharedIds?: true;
	/**
	 * Its entry ids are places in the file (Codex keeps none: a line's byte offset), so the same id in a fork and its
	 * parent is no sign of one message copied: a fork's hit is never folded into its parent's (search/group.ts).
	 */
	positionalIds?: true;
	/**
	 * Its files may hold a sub-agent's conversation beside the session's own, under a side entry (Claude Code 1.0's
	 * inline sidechains; `TreeNode.side`): a hit off the active branch names the call that spawned it (search/shape.ts).
	 */
	sideConversations?: true;
	/** Parse the complete lines of a chunk, continuing `state` (mutated). */
	parseLines(lines: string[], state: ParseState, at?: LineOffsets): ParsedChunk;
	/** The entries one line of a file stands for (a snippet cut from a long entry's unstored middle). */
	entriesOfLine?(line: string): ParsedChunk["entries"];
	/** A line too long to read (skipped, `DEFAULTS.maxLineBytes`): the entry its head still tells of, if any (a Codex compaction). */
	longLine?(head: string, start: number, state: ParseState): ParsedChunk["entries"][number] | undefined;
	/** Whether a file's first record is this format's (a file found where no agent's folder says whose it is). */
	sniff?(first: Record<string, unknown>): boolean;
	/** A file that is one JSON document, not lines (Gemini CLI before 0.39): parsed whole, or undefined to read it as lines. */
	parseDocument?(bytes: Uint8Array, state: ParseState): ParsedChunk | undefined;
}

/** Whether an agent's files are Pi's own format (read whole, within `DEFAULTS.maxFileBytes`). */
export function isPiFormat(format: SessionFormat): boolean {
	return format === piFormat;
}

/** The format of an agent's files (Pi's for Pi and omp, and for a file whose agent is not known). */
export function formatOf(agent: AgentKind | undefined): SessionFormat {
	return readerOf(agent).format;
}

/** The agent whose title slot a file begins with (omp's), and the slot's length: 0 when it has none. */
export function titleSlotOf(bytes: Uint8Array): { length: number; agent?: AgentKind } {
	for (const [agent, reader] of AGENT_READERS) {
		const length = reader.titleSlot?.length(bytes) ?? 0;
		if (length > 0) return { length, agent };
	}
	return { length: 0 };
}

/** The title a file's head slot holds (its bytes read again after a rename), or undefined. */
export function slotTitle(slot: Uint8Array): string | undefined {
	for (const [, reader] of AGENT_READERS) if (reader.titleSlot && reader.titleSlot.length(slot) > 0) return reader.titleSlot.title(slot);
	return undefined;
}

/**
 * The agent whose format a file is in, from its first line: for files found where no agent's folder says (a
 * folder given by hand, files picked in a page). Pi's (and omp's, told apart by its title slot) when none claims it.
 */
export function sniffAgent(bytes: Uint8Array): AgentKind | undefined {
	const end = bytes.indexOf(0x0a);
	const first = parseJsonObject(
		new TextDecoder().decode(bytes.subarray(0, end < 0 ? Math.min(bytes.length, 1 << 20) : end)).replace(/^\uFEFF/, ""),
	);
	if (!first) return undefined;
	// Each sniff claims only its own agent's first lines (Claude Code's and Gemini CLI's both name a session, only
	// Claude Code's has a type), so which is asked first does not decide.
	for (const [agent, reader] of AGENT_READERS) if (reader.format.sniff?.(first)) return agent;
	return undefined;
}

/** What one chunk of a file parsed into, and how many of its bytes were complete lines. */
export interface ParsedBytes extends ParsedChunk {
	consumedBytes: number;
	pendingBytes: number;
}

/** Parse a chunk of a file's bytes that starts at byte `base` (`ranges`: keep each entry's byte range). */
export function parseBytes(format: SessionFormat, bytes: Uint8Array, state: ParseState, base: number, ranges: boolean): ParsedBytes {
	const doc = base === 0 ? format.parseDocument?.(bytes, state) : undefined;
	if (doc) return { ...doc, consumedBytes: bytes.length, pendingBytes: 0 };
	const chunk = splitLines(bytes);
	const parsed = format.parseLines(chunk.lines, state, ranges ? { ...chunk, base } : undefined);
	return { ...parsed, consumedBytes: chunk.consumedBytes, pendingBytes: chunk.pendingBytes };
}
