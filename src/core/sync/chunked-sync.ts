/**
 * One file read in bounded chunks whatever its size (another agent's append-only format, a zstd file inflated as it
 * is read: Codex rollouts reach 2 GB): a new file's row made once its first run of lines is parsed and completed at
 * its end, a grown one read from its last consumed byte.
 */

import { readerOf } from "../../agents/readers.js";
import { DEFAULTS } from "../defaults.js";
import { formatOf, parseBytes, type SessionFormat, titleSlotOf } from "../parse/formats.js";
import { newParseState, type ParseState, sessionIdFromFileName } from "../parse/session-format.js";
import type { SessionFileInfo, SessionSource } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { toEpochMs } from "../text/time.js";
import { lastRowId, noteParse, parentIdOf, readSpilled, spawnerOf } from "./file-read.js";
import type { KnownFile } from "./file-sync.js";
import { fingerprint } from "./hash.js";
import { isZstd, type LineLimits, lineRuns, type ReadTally } from "./line-chunks.js";
import { type SyncReport, skip } from "./report.js";
import type { SessionWriter } from "./session-writer.js";

/** What a chunked read of one file came to. */
interface ChunkedRead {
	session: number;
	consumed: number;
	malformed: number;
	title?: string;
	longLines: number;
	truncated: boolean;
}

const decoder = new TextDecoder("utf-8");

export class ChunkedSync {
	constructor(
		private readonly db: Database,
		private readonly source: SessionSource,
		private readonly writer: SessionWriter,
		private readonly report: SyncReport,
	) {}

	private limits(): LineLimits {
		return { chunkBytes: DEFAULTS.readChunkBytes, maxLineBytes: DEFAULTS.maxLineBytes, maxBytes: DEFAULTS.maxInflatedBytes };
	}

	/**
	 * Parse a file from `start` a bounded run of lines at a time, each run's entries written as it is parsed.
	 * `open` gives the session row once the first run is parsed (its header known); a line over the cap is
	 * skipped and counted, a compressed file is inflated as it is read and stops at `maxInflatedBytes`.
	 */
	private async readChunks(
		file: SessionFileInfo,
		format: SessionFormat,
		state: ParseState,
		start: number,
		open: (first: Uint8Array) => number,
	): Promise<ChunkedRead> {
		const tally: ReadTally = { bytesRead: 0, truncated: false };
		const ranges = !isZstd(file.path);
		const result: ChunkedRead = { session: -1, consumed: start, malformed: 0, longLines: 0, truncated: false };
		this.report.filesParsed++;
		const read = (from: number, to: number) => this.source.read(file.path, from, to);
		for await (const run of lineRuns(read, file.path, start, file.size, this.limits(), tally)) {
			if (run.kind === "long") {
				result.longLines++;
				result.consumed = run.end;
				if (result.session < 0) result.session = open(new Uint8Array(0));
				const entry = format.longLine?.(decoder.decode(run.head), run.start, state);
				if (entry && result.session >= 0) {
					if (!ranges) entry.range = undefined;
					state.lastId = entry.id;
					this.writer.addEntries(result.session, [entry]);
				}
				continue;
			}
			const parsed = parseBytes(format, run.bytes, state, run.base, true);
			if (!run.final) parsed.pendingBytes = 0;
			noteParse(this.report, parsed, parsed.newVersion ? { path: file.path, agent: file.agent ?? "pi" } : undefined);
			if (!ranges) for (const e of parsed.entries) e.range = undefined;
			if (result.session < 0) result.session = open(run.bytes);
			result.malformed += parsed.malformedLines;
			if (parsed.title !== undefined) result.title = parsed.title;
			if (run.bytes.length > 0 || run.final) result.consumed = run.base + parsed.consumedBytes;
			await readSpilled(this.source, this.report, file, parsed.entries);
			this.writer.addEntries(result.session, parsed.entries);
		}
		this.report.bytesRead += tally.bytesRead;
		this.report.longLines += result.longLines;
		result.truncated = tally.truncated;
		if (tally.truncated)
			skip(this.report, {
				path: file.path,
				reason: "oversized",
				detail: `inflates past ${DEFAULTS.maxInflatedBytes} bytes: only its first ${result.consumed} bytes are indexed`,
			});
		return result;
	}

	/** A new file read in bounded chunks: its row is made once the first run is parsed, then completed at the end. */
	async whole(file: SessionFileInfo): Promise<void> {
		const state = newParseState();
		let headOff = 0;
		let headLen = 0;
		let headHash = fingerprint(new Uint8Array(0));
		const done = await this.readChunks(file, formatOf(file.agent), state, 0, (first) => {
			const slot = titleSlotOf(first);
			headOff = slot.length;
			headLen = Math.max(0, Math.min(first.length - headOff, DEFAULTS.headFingerprintBytes));
			headHash = fingerprint(first.subarray(headOff, headOff + headLen));
			this.db.run(
				"INSERT INTO sessions(path, root, size, mtime, consumed, head_off, head_len, head_hash, agent, kind) VALUES (?,?,?,?,?,?,?,?,?,?)",
				[
					file.path,
					file.root,
					file.size,
					Math.floor(file.mtimeMs),
					0,
					headOff,
					headLen,
					headHash,
					slot.agent ?? file.agent ?? "pi",
					file.kind ?? "session",
				],
			);
			return lastRowId(this.db);
		});
		const header = state.header;
		const problems = [
			...(done.longLines > 0 ? [`${done.longLines} lines over ${DEFAULTS.maxLineBytes} bytes skipped`] : []),
			...(done.truncated ? [`inflated bytes past ${DEFAULTS.maxInflatedBytes} not read`] : []),
		];
		const hasEntries = queryAll<{ n: number }>(this.db, "SELECT count(*) AS n FROM entries WHERE session = ?", [done.session])[0]?.n ?? 0;
		const sessionId = header?.id ?? (hasEntries > 0 ? sessionIdFromFileName(file.path) : undefined) ?? null;
		const subagent = file.kind === "subagent" || (file.kind === undefined && header?.spawnedById !== undefined);
		const spawnedBy = file.spawnedBy ?? spawnerOf(file, header?.spawnedById) ?? this.spawnerById(file, header?.spawnedById);
		const indexedName = await this.sessionName(file, sessionId);
		this.db.run(
			`UPDATE sessions SET consumed = ?, head_off = ?, head_len = ?, head_hash = ?, malformed = ?, problem = ?, session_id = ?, version = ?,
			 cwd = ?, started = ?, parent_path = ?, parent_id = ?, next_seq = ?, kind = ?, spawned_by = ?, name = ? WHERE id = ?`,
			[
				Math.min(done.consumed, file.size),
				headOff,
				Math.min(headLen, Math.max(0, done.consumed - headOff)),
				headHash,
				done.malformed,
				problems.length > 0 ? problems.join("; ") : null,
				sessionId,
				header?.version ?? null,
				header?.cwd ?? null,
				toEpochMs(header?.timestamp) ?? null,
				header?.parentSession ?? null,
				header?.parentSession ? (parentIdOf(header.parentSession) ?? null) : null,
				state.nextSeq,
				subagent ? "subagent" : (file.kind ?? "session"),
				spawnedBy,
				indexedName ?? header?.title ?? done.title ?? null,
				done.session,
			],
		);
		// Sub-agents indexed before this session named it by a stand-in path: they now name its file.
		const standIn = readerOf(file.agent).spawnerStandIn;
		if (sessionId && file.agent && standIn)
			this.db.run("UPDATE sessions SET spawned_by = ? WHERE spawned_by = ? AND agent = ?", [
				file.path,
				standIn(file.path, sessionId),
				file.agent,
			]);
		this.writer.refreshSession(done.session);
	}

	/** A sub-agent that names its session only by id, where that session's file name cannot be guessed (Codex): its indexed file, or a stand-in path until it is indexed. */
	private spawnerById(file: SessionFileInfo, spawnedById: string | undefined): string | null {
		const standIn = readerOf(file.agent).spawnerStandIn;
		if (!spawnedById || !file.agent || !standIn) return null;
		const found = queryAll<{ path: string }>(this.db, "SELECT path FROM sessions WHERE session_id = ? AND agent = ? LIMIT 1", [
			spawnedById,
			file.agent,
		])[0];
		return found?.path ?? standIn(file.path, spawnedById);
	}

	/** A grown file read from its last consumed byte in bounded chunks. */
	async grow(file: SessionFileInfo, known: KnownFile): Promise<void> {
		const state: ParseState = {
			header: known.session_id !== null && known.version !== null ? { id: known.session_id, version: known.version } : undefined,
			nextSeq: known.next_seq,
			lastId: known.last_entry,
		};
		const done = await this.readChunks(file, formatOf(known.agent), state, known.consumed, () => known.id);
		const title = (await this.sessionName(file, known.session_id ?? state.header?.id)) ?? done.title;
		if (title !== undefined) this.db.run("UPDATE sessions SET name = ? WHERE id = ?", [title, known.id]);
		this.db.run(
			"UPDATE sessions SET size = ?, mtime = ?, consumed = ?, malformed = malformed + ?, next_seq = ?, session_id = coalesce(session_id, ?) WHERE id = ?",
			[file.size, Math.floor(file.mtimeMs), done.consumed, done.malformed, state.nextSeq, state.header?.id ?? null, known.id],
		);
		this.writer.refreshSession(known.id);
	}

	/** Session names read from the file beside the sessions their agent keeps them in, once per batch (by agent). */
	private readonly names = new Map<string, Promise<Map<string, string>>>();

	/** The name an agent's own index of names gives a session (Codex's `session_index.jsonl`), if any. */
	private async sessionName(file: SessionFileInfo, sessionId: string | null | undefined): Promise<string | undefined> {
		const names = readerOf(file.agent).sessionNames;
		if (!file.agent || !names || !sessionId || !this.source.readBeside) return undefined;
		const readBeside = this.source.readBeside.bind(this.source);
		let read = this.names.get(file.agent);
		if (!read) {
			read = readBeside(file.root, names.file, DEFAULTS.spilledOutputMaxBytes * 4).then((bytes) =>
				bytes ? names.read(bytes) : new Map<string, string>(),
			);
			this.names.set(file.agent, read);
		}
		return (await read).get(sessionId);
	}
}
