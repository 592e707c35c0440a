/**
 * One file's sync: a new file parsed whole, a grown one from its last consumed byte (its head fingerprinted
 * first), a rewritten or shrunk one purged and parsed again, omp's renamed title slot read alone.
 */

import { gunzipSync } from "fflate";
import { DEFAULTS } from "../defaults.js";
import { formatOf, type ParsedBytes, parseBytes } from "../parse/formats.js";
import { agentOfFile, slotBytesTitle, titleSlotLength } from "../parse/omp-format.js";
import { newParseState, type ParseState, sessionIdFromFileName } from "../parse/session-format.js";
import type { SessionFileInfo, SessionSource } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { toEpochMs } from "../text/time.js";
import { fingerprint } from "./hash.js";
import type { SyncReport } from "./report.js";
import type { SessionWriter } from "./session-writer.js";

function isGzip(path: string): boolean {
	return path.endsWith(".gz");
}

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
}

const KNOWN_COLUMNS =
	"id, path, root, size, mtime, consumed, head_off, head_len, head_hash, session_id, version, cwd, parent_path, next_seq, last_entry";

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
		const appendOnly = !isGzip(file.path) && formatOf(file.agent).growth === "append";
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

	private async whole(file: SessionFileInfo): Promise<void> {
		const raw = await this.read(file, 0, file.size);
		const bytes = isGzip(file.path) ? gunzipSync(raw) : raw;
		this.report.filesParsed++;
		const state = newParseState();
		// A gzipped archive's offsets are in its inflated bytes, which cannot be read in part: its entries keep no range.
		const parsed = parseBytes(formatOf(file.agent), bytes, state, 0, !isGzip(file.path));
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
				agentOfFile(headOff, file.agent),
				file.kind ?? "session",
				file.spawnedBy ?? spawnerOf(file, header?.spawnedById),
				header?.title ?? parsed.title ?? null,
			],
		);
		const session = Number(this.db.exec("SELECT last_insert_rowid()")[0].values[0][0]);
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
		const bytes = await this.read(file, known.consumed, file.size);
		this.report.filesParsed++;
		const state: ParseState = {
			header: known.session_id !== null && known.version !== null ? { id: known.session_id, version: known.version } : undefined,
			nextSeq: known.next_seq,
			lastId: known.last_entry,
		};
		const parsed = parseBytes(formatOf(file.agent), bytes, state, known.consumed, true);
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
		this.writer.addEntries(known.id, parsed.entries);
		this.writer.refreshSession(known.id);
	}
}
