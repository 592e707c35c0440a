/**
 * One file's sync: a new file parsed whole, a grown one from its last consumed byte (its head fingerprinted
 * first), a rewritten or shrunk one purged and parsed again, omp's renamed title slot read alone. Another agent's
 * append-only files are read in bounded chunks (chunked-sync.ts).
 */

import { gunzipSync } from "fflate";
import { DEFAULTS } from "../defaults.js";
import { formatOf, isPiFormat, parseBytes, slotTitle, sniffAgent, titleSlotOf } from "../parse/formats.js";
import { newParseState, type ParseState, sessionIdFromFileName } from "../parse/session-format.js";
import type { AgentKind, SessionFileInfo, SessionSource } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { toEpochMs } from "../text/time.js";
import { ChunkedSync } from "./chunked-sync.js";
import { lastRowId, noteParse, parentIdOf, readSpilled, spawnerOf } from "./file-read.js";
import { fingerprint } from "./hash.js";
import { isZstd } from "./line-chunks.js";
import type { SyncReport } from "./report.js";
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
	) {
		this.chunked = new ChunkedSync(db, source, writer, report);
	}

	private readonly chunked: ChunkedSync;

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
		const title = slotTitle(slot);
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
		if (readInChunks(file)) return this.chunked.whole(file);
		const raw = file.rendered ? await this.document(file) : await this.read(file, 0, file.size);
		const bytes = isGzip(file.path) ? gunzipSync(raw) : raw;
		this.report.filesParsed++;
		const state = newParseState();
		// A file that begins with an agent's title slot is that agent's (omp's); one found where no agent's folder says
		// whose it is (a folder given by hand, a page's picked files): its first line says.
		const slot = titleSlotOf(bytes);
		const agent = slot.agent ?? file.agent ?? sniffAgent(bytes) ?? "pi";
		// A gzipped archive's offsets are in its inflated bytes, which cannot be read in part: its entries keep no range.
		const parsed = parseBytes(formatOf(agent), bytes, state, 0, !isGzip(file.path));
		const chunk = parsed;
		noteParse(this.report, parsed, { path: file.path, agent });
		// The fingerprint skips omp's title slot, which omp rewrites in place on every rename.
		const headOff = slot.length;
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
		const session = lastRowId(this.db);
		await readSpilled(this.source, this.report, file, parsed.entries);
		this.writer.addEntries(session, parsed.entries);
		this.writer.refreshSession(session);
	}

	private async grow(file: SessionFileInfo, known: KnownFile): Promise<void> {
		if (readInChunks({ path: file.path, agent: known.agent })) return this.chunked.grow(file, known);
		const bytes = await this.read(file, known.consumed, file.size);
		this.report.filesParsed++;
		const state: ParseState = {
			header: known.session_id !== null && known.version !== null ? { id: known.session_id, version: known.version } : undefined,
			nextSeq: known.next_seq,
			lastId: known.last_entry,
		};
		const parsed = parseBytes(formatOf(known.agent), bytes, state, known.consumed, true);
		const chunk = parsed;
		noteParse(this.report, parsed, parsed.newVersion ? { path: file.path, agent: known.agent ?? "pi" } : undefined);
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
		await readSpilled(this.source, this.report, file, parsed.entries);
		this.writer.addEntries(known.id, parsed.entries);
		this.writer.refreshSession(known.id);
	}
}
