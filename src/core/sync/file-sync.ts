/**
 * One file's sync: a new file parsed whole, a grown one from its last consumed byte (its head fingerprinted
 * first), a rewritten or shrunk one purged and parsed again, omp's renamed title slot read alone.
 */

import { gunzipSync } from "fflate";
import { codexThreadNames } from "../../agents/codex/format.js";
import { agentOfFile, slotBytesTitle, titleSlotLength } from "../../agents/omp/title-slot.js";
import { DEFAULTS } from "../defaults.js";
import { formatOf, isPiFormat, type ParsedBytes, parseBytes, type SessionFormat, sniffAgent } from "../parse/formats.js";
import { newParseState, type ParseState, type SessionEntry, sessionIdFromFileName } from "../parse/session-format.js";
import type { AgentKind, SessionFileInfo, SessionSource } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { toEpochMs } from "../text/time.js";
import { fingerprint } from "./hash.js";
import { isZstd, type LineLimits, lineRuns, type ReadTally } from "./line-chunks.js";
import { type SyncReport, skip } from "./report.js";
import type { SessionWriter } from "./session-writer.js";

function isGzip(path: string): boolean {
	return path.endsWith(".gz");
}

/**
 * Whether a file is read in bounded chunks whatever its size: another agent's append-only format (a zstd file
 * inflated as it is read). Pi's and omp's files, gzipped archives and formats read whole keep `maxFileBytes`.
 */
export function readInChunks(file: Pick<SessionFileInfo, "path" | "agent">): boolean {
	const format = formatOf(file.agent);
	return !isGzip(file.path) && format.growth === "append" && !isPiFormat(format);
}

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

/** The session a fork header names: Pi writes a path (its file name holds the id), omp may write the id itself. */
function parentIdOf(parentSession: string): string | undefined {
	return sessionIdFromFileName(parentSession) ?? (/^[0-9a-zA-Z-]{8,}$/.test(parentSession) ? parentSession : undefined);
}

/** A sub-agent transcript that names its session only by id: that session's file beside it (Claude Code 2.0's `agent-<id>.jsonl`). */
function spawnerOf(file: SessionFileInfo, sessionId: string | undefined): string | null {
	if (file.kind !== "subagent" || !sessionId) return null;
	const cut = Math.max(file.path.lastIndexOf("/"), file.path.lastIndexOf("\\"));
	return `${file.path.slice(0, cut + 1)}${sessionId}.jsonl`;
}

/** The document of a session an agent keeps as rows, as `source` renders it. */
export async function documentOf(source: SessionSource, path: string): Promise<Uint8Array> {
	if (!source.readDocument) throw new Error(`${path} is rendered from a database this source cannot read`);
	return source.readDocument(path);
}

/** What the index holds of one file. */
export interface KnownFile {
	id: number;
	path: string;
	root: string;
	size: number;
	mtime: number;
	consumed: number;
	head_off: number;
	head_len: number;
	head_hash: string;
	session_id: string | null;
	version: number | null;
	cwd: string | null;
	parent_path: string | null;
	next_seq: number;
	last_entry: string | null;
	agent: AgentKind;
	/** When its file was found gone (null: it is there). */
	gone_at: number | null;
}

const KNOWN_COLUMNS =
	"id, path, root, size, mtime, consumed, head_off, head_len, head_hash, session_id, version, cwd, parent_path, next_seq, last_entry, agent, gone_at";

/** The indexed row of one file, read inside the write transaction (another process may have indexed it meanwhile). */
export function knownFile(db: Database, path: string): KnownFile | undefined {
	return queryAll<KnownFile>(db, `SELECT ${KNOWN_COLUMNS} FROM sessions WHERE path = ?`, [path])[0];
}

/** Decides what to do with one file and does it. */
export class FileSync {
	constructor(
		private readonly db: Database,
		private readonly source: SessionSource,
		private readonly writer: SessionWriter,
		private readonly report: SyncReport,
	) {}

	async file(file: SessionFileInfo, known: KnownFile | undefined): Promise<void> {
		if (!known) {
			await this.whole(file);
			this.report.added++;
			return;
		}
		// A gzipped archive cannot be read from an offset, nor a format whose records are rewritten: read again whole when it changes.
		const appendOnly = !isGzip(file.path) && !isZstd(file.path) && formatOf(known.agent).growth === "append";
		if (appendOnly && file.size >= known.consumed && (await this.headUnchanged(file, known))) {
			if (known.head_off > 0) await this.retitle(file, known);
			if (file.size > known.consumed) {
				await this.grow(file, known);
				this.report.grown++;
			} else {
				this.db.run("UPDATE sessions SET size = ?, mtime = ? WHERE id = ?", [file.size, Math.floor(file.mtimeMs), known.id]);
				this.report.unchanged++;
				this.report.touched++;
			}
			return;
		}
		this.writer.purgeSession(known.id);
		await this.whole(file);
		this.report.rewritten++;
	}

	private async read(file: SessionFileInfo, start: number, end: number): Promise<Uint8Array> {
		const bytes = await this.source.read(file.path, start, end);
		this.report.bytesRead += bytes.length;
		return bytes;
	}

	/** omp rewrites its title slot in place on a rename: take the title from it without reading the body. */
	private async retitle(file: SessionFileInfo, known: KnownFile): Promise<void> {
		const slot = await this.source.read(file.path, 0, known.head_off);
		this.report.fingerprintBytesRead += slot.length;
		const title = slotBytesTitle(slot);
		if (title === undefined) return;
		const changed =
			queryAll<{ n: number }>(this.db, "SELECT count(*) AS n FROM sessions WHERE id = ? AND name IS NOT ?", [known.id, title])[0]?.n ?? 0;
		if (changed > 0) {
			this.db.run("UPDATE sessions SET name = ? WHERE id = ?", [title, known.id]);
			this.report.retitled++;
		}
	}

	private async headUnchanged(file: SessionFileInfo, known: KnownFile): Promise<boolean> {
		if (known.head_len === 0) return known.consumed === known.head_off;
		const head = await this.source.read(file.path, known.head_off, known.head_off + known.head_len);
		this.report.fingerprintBytesRead += head.length;
		return head.length === known.head_len && fingerprint(head) === known.head_hash;
	}

	/** The last document made, until taken: the archive keeps the very bytes the index parsed. */
	private lastDocument: { path: string; bytes: Uint8Array } | undefined;

	/** A session an agent keeps as rows, made into one document by the source. */
	private async document(file: SessionFileInfo): Promise<Uint8Array> {
		const bytes = await documentOf(this.source, file.path);
		this.report.bytesRead += bytes.length;
		this.lastDocument = { path: file.path, bytes };
		return bytes;
	}

	/** The document this sync made of `path` (a session rendered from rows) and parsed, once; undefined when none was. */
	takeDocument(path: string): Uint8Array | undefined {
		const last = this.lastDocument;
		this.lastDocument = undefined;
		return last?.path === path ? last.bytes : undefined;
	}

	private async whole(file: SessionFileInfo): Promise<void> {
		if (readInChunks(file)) return this.wholeInChunks(file);
		const raw = file.rendered ? await this.document(file) : await this.read(file, 0, file.size);
		const bytes = isGzip(file.path) ? gunzipSync(raw) : raw;
		this.report.filesParsed++;
		const state = newParseState();
		// A file found where no agent's folder says whose it is (a folder given by hand, a page's picked files): its first line says.
		const agent = agentOfFile(titleSlotLength(bytes), file.agent ?? sniffAgent(bytes));
		// A gzipped archive's offsets are in its inflated bytes, which cannot be read in part: its entries keep no range.
		const parsed = parseBytes(formatOf(agent), bytes, state, 0, !isGzip(file.path));
		const chunk = parsed;
		this.noteParse(parsed);
		// The fingerprint skips omp's title slot, which omp rewrites in place on every rename.
		const headOff = titleSlotLength(bytes);
		const headLen = Math.max(0, Math.min(chunk.consumedBytes - headOff, DEFAULTS.headFingerprintBytes));
		const header = state.header;
		const problem = parsed.headerProblem ? `header ${parsed.headerProblem}` : null;
		const sessionId = header?.id ?? (parsed.entries.length > 0 ? sessionIdFromFileName(file.path) : undefined) ?? null;
		this.db.run(
			`INSERT INTO sessions(path, root, size, mtime, consumed, head_off, head_len, head_hash, malformed, problem, session_id, version, cwd, started, parent_path, parent_id, next_seq, agent, kind, spawned_by, name)
			 VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			[
				file.path,
				file.root,
				file.size,
				Math.floor(file.mtimeMs),
				chunk.consumedBytes,
				headOff,
				headLen,
				fingerprint(bytes.subarray(headOff, headOff + headLen)),
				parsed.malformedLines,
				problem,
				sessionId,
				header?.version ?? null,
				header?.cwd ?? file.cwd ?? null,
				toEpochMs(header?.timestamp) ?? null,
				header?.parentSession ?? null,
				header?.parentSession ? (parentIdOf(header.parentSession) ?? null) : null,
				state.nextSeq,
				agent,
				file.kind ?? "session",
				file.spawnedBy ?? spawnerOf(file, header?.spawnedById),
				header?.title ?? parsed.title ?? null,
			],
		);
		const session = Number(this.db.exec("SELECT last_insert_rowid()")[0].values[0][0]);
		await this.readSpilled(file, parsed.entries);
		this.writer.addEntries(session, parsed.entries);
		this.writer.refreshSession(session);
	}

	/** Count what a parse skipped, and name a format version never tested once. */
	private noteParse(parsed: ParsedBytes): void {
		this.report.malformedLines += parsed.malformedLines;
		this.report.pendingBytes += parsed.pendingBytes;
		this.report.unknownRecords += parsed.unknownRecords ?? 0;
		if (parsed.newVersion && !this.report.newVersions.includes(parsed.newVersion)) this.report.newVersions.push(parsed.newVersion);
	}

	private async grow(file: SessionFileInfo, known: KnownFile): Promise<void> {
		if (readInChunks({ path: file.path, agent: known.agent })) return this.growInChunks(file, known);
		const bytes = await this.read(file, known.consumed, file.size);
		this.report.filesParsed++;
		const state: ParseState = {
			header: known.session_id !== null && known.version !== null ? { id: known.session_id, version: known.version } : undefined,
			nextSeq: known.next_seq,
			lastId: known.last_entry,
		};
		const parsed = parseBytes(formatOf(known.agent), bytes, state, known.consumed, true);
		const chunk = parsed;
		this.noteParse(parsed);
		if (parsed.title !== undefined) this.db.run("UPDATE sessions SET name = ? WHERE id = ?", [parsed.title, known.id]);
		this.db.run(
			"UPDATE sessions SET size = ?, mtime = ?, consumed = ?, malformed = malformed + ?, next_seq = ?, session_id = coalesce(session_id, ?) WHERE id = ?",
			[
				file.size,
				Math.floor(file.mtimeMs),
				known.consumed + chunk.consumedBytes,
				parsed.malformedLines,
				state.nextSeq,
				state.header?.id ?? null,
				known.id,
			],
		);
		await this.readSpilled(file, parsed.entries);
		this.writer.addEntries(known.id, parsed.entries);
		this.writer.refreshSession(known.id);
	}

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
			this.noteParse(parsed);
			if (!ranges) for (const e of parsed.entries) e.range = undefined;
			if (result.session < 0) result.session = open(run.bytes);
			result.malformed += parsed.malformedLines;
			if (parsed.title !== undefined) result.title = parsed.title;
			if (run.bytes.length > 0 || run.final) result.consumed = run.base + parsed.consumedBytes;
			await this.readSpilled(file, parsed.entries);
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
	private async wholeInChunks(file: SessionFileInfo): Promise<void> {
		const state = newParseState();
		let headOff = 0;
		let headLen = 0;
		let headHash = fingerprint(new Uint8Array(0));
		const done = await this.readChunks(file, formatOf(file.agent), state, 0, (first) => {
			headOff = titleSlotLength(first);
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
					agentOfFile(headOff, file.agent),
					file.kind ?? "session",
				],
			);
			return Number(this.db.exec("SELECT last_insert_rowid()")[0].values[0][0]);
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
		const indexedName = await this.codexName(file, sessionId);
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
		if (sessionId && file.agent === "codex")
			this.db.run("UPDATE sessions SET spawned_by = ? WHERE spawned_by = ? AND agent = ?", [
				file.path,
				codexStandIn(file, sessionId),
				"codex",
			]);
		this.writer.refreshSession(done.session);
	}

	/** A sub-agent that names its session only by id, where that session's file name cannot be guessed (Codex): its indexed file, or a stand-in path until it is indexed. */
	private spawnerById(file: SessionFileInfo, spawnedById: string | undefined): string | null {
		if (!spawnedById || file.agent !== "codex") return null;
		const found = queryAll<{ path: string }>(this.db, "SELECT path FROM sessions WHERE session_id = ? AND agent = ? LIMIT 1", [
			spawnedById,
			"codex",
		])[0];
		return found?.path ?? codexStandIn(file, spawnedById);
	}

	/** A grown file read from its last consumed byte in bounded chunks. */
	private async growInChunks(file: SessionFileInfo, known: KnownFile): Promise<void> {
		const state: ParseState = {
			header: known.session_id !== null && known.version !== null ? { id: known.session_id, version: known.version } : undefined,
			nextSeq: known.next_seq,
			lastId: known.last_entry,
		};
		const done = await this.readChunks(file, formatOf(known.agent), state, known.consumed, () => known.id);
		const title = (await this.codexName(file, known.session_id ?? state.header?.id)) ?? done.title;
		if (title !== undefined) this.db.run("UPDATE sessions SET name = ? WHERE id = ?", [title, known.id]);
		this.db.run(
			"UPDATE sessions SET size = ?, mtime = ?, consumed = ?, malformed = malformed + ?, next_seq = ?, session_id = coalesce(session_id, ?) WHERE id = ?",
			[file.size, Math.floor(file.mtimeMs), done.consumed, done.malformed, state.nextSeq, state.header?.id ?? null, known.id],
		);
		this.writer.refreshSession(known.id);
	}

	/** Codex thread names from `session_index.jsonl` in the Codex home, read once per batch. */
	private codexNames?: Promise<Map<string, string>>;

	/** The name Codex's session index gives a thread, if any. */
	private async codexName(file: SessionFileInfo, sessionId: string | null | undefined): Promise<string | undefined> {
		if (file.agent !== "codex" || !sessionId || !this.source.readBeside) return undefined;
		const readBeside = this.source.readBeside.bind(this.source);
		this.codexNames ??= readBeside(file.root, "session_index.jsonl", DEFAULTS.spilledOutputMaxBytes * 4).then((bytes) =>
			bytes ? codexThreadNames(bytes) : new Map<string, string>(),
		);
		return (await this.codexNames).get(sessionId);
	}

	/** A tool result whose whole output sits in a file beside the session is indexed with that output. */
	private async readSpilled(file: SessionFileInfo, entries: SessionEntry[]): Promise<void> {
		for (const entry of entries) {
			if (!entry.spilled || !this.source.readBeside) continue;
			const bytes = await this.source.readBeside(file.root, entry.spilled, DEFAULTS.spilledOutputMaxBytes);
			if (!bytes) continue;
			this.report.bytesRead += bytes.length;
			const message = entry.raw.message as { content: { type: string; text: string }[] } | undefined;
			if (message) message.content = [{ type: "text", text: new TextDecoder().decode(bytes) }];
		}
	}
}

/** Where a Codex sub-agent's session is named until that session's own file is indexed: a path in the sub-agent's folder that holds the id. */
function codexStandIn(file: SessionFileInfo, sessionId: string): string {
	const cut = Math.max(file.path.lastIndexOf("/"), file.path.lastIndexOf("\\"));
	return `${file.path.slice(0, cut + 1)}rollout-${sessionId}.jsonl`;
}
