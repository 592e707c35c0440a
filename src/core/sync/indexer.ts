/**
 * Incremental sync: new files are parsed whole, grown files from their last consumed byte, rewritten or
 * shrunk files again from the start; a vanished file is purged only after a complete walk of its root.
 */

import { DEFAULTS } from "../defaults.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { errorMessage } from "../errors.js";
import { fingerprint } from "./hash.js";
import { splitLines } from "../parse/jsonl.js";
import { agentOfFile, slotBytesTitle, titleSlotLength } from "../parse/omp-format.js";
import { newParseState, parseSessionLines, sessionIdFromFileName, type ParseState } from "../parse/session-format.js";
import { SessionWriter } from "./session-writer.js";
import type { SessionFileInfo, SessionSource, SkipReason, SkippedFile, SyncWarning } from "../parse/source.js";
import { indexBytes, metaValue, setMeta } from "../store/stats.js";
import { transactions, type Transactions } from "../store/transactions.js";
import { toEpochMs } from "../text/time.js";
import { gunzipSync } from "fflate";

function isGzip(path: string): boolean {
	return path.endsWith(".gz");
}

/** The session a fork header names: Pi writes a path (its file name holds the id), omp may write the id itself. */
function parentIdOf(parentSession: string): string | undefined {
	return sessionIdFromFileName(parentSession) ?? (/^[0-9a-zA-Z-]{8,}$/.test(parentSession) ? parentSession : undefined);
}

/** What a sync did and what it skipped. Counts of work are exact (tests assert them). */
export interface SyncReport {
	filesSeen: number;
	added: number;
	grown: number;
	rewritten: number;
	unchanged: number;
	/** Files whose time changed with no new complete line (counted in unchanged too). */
	touched: number;
	/** omp sessions whose title slot was rewritten in place: the title is updated, the body not read again. */
	retitled: number;
	purged: number;
	/** Files whose bytes were parsed (added + grown + rewritten). */
	filesParsed: number;
	/** Bytes of session content read and parsed. */
	bytesRead: number;
	/** Bytes read to check that a grown file's head is unchanged (at most `headFingerprintBytes` per file). */
	fingerprintBytesRead: number;
	entriesIndexed: number;
	malformedLines: number;
	/** Bytes of half-written last lines left for the next sync. */
	pendingBytes: number;
	skipped: Record<SkipReason, number>;
	/** The first skipped files, for messages (at most `DEFAULTS.skippedFilesListed`). */
	skippedFiles: SkippedFile[];
	warnings: SyncWarning[];
	/** Whether the index changed (and so a snapshot needs saving). */
	changed: boolean;
	/** Whether the sync was stopped (`signal`) before every file was read; the rest is read by the next sync. */
	interrupted: boolean;
	durationMs: number;
}

export interface SyncProgress {
	done: number;
	total: number;
	bytesRead: number;
	path: string;
}

export interface SyncOptions {
	onProgress?: (progress: SyncProgress) => void;
	/** Files larger than this are skipped (default `DEFAULTS.maxFileBytes`). */
	maxFileBytes?: number;
	/** The index stops taking new text past this size (snapshot storages; an index opened in place has no ceiling). */
	maxIndexBytes?: number;
	/** How transactions wait their turn (default: a storage nobody else writes). */
	transactions?: Transactions;
	/** Work committed per write transaction, in milliseconds (default `DEFAULTS.syncBatchMs`). */
	batchMs?: number;
	/** Stop at the next file: what is done so far is committed. */
	signal?: AbortSignal;
}

interface KnownFile {
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

function emptyReport(): SyncReport {
	return {
		filesSeen: 0,
		added: 0,
		grown: 0,
		rewritten: 0,
		unchanged: 0,
		touched: 0,
		retitled: 0,
		purged: 0,
		filesParsed: 0,
		bytesRead: 0,
		fingerprintBytesRead: 0,
		entriesIndexed: 0,
		malformedLines: 0,
		pendingBytes: 0,
		skipped: { oversized: 0, "tmp-folder": 0, unreadable: 0, "index-full": 0 },
		skippedFiles: [],
		warnings: [],
		changed: false,
		interrupted: false,
		durationMs: 0,
	};
}

function skip(report: SyncReport, file: SkippedFile): void {
	report.skipped[file.reason]++;
	if (report.skippedFiles.length < DEFAULTS.skippedFilesListed) report.skippedFiles.push(file);
}

const KNOWN_COLUMNS = "id, path, root, size, mtime, consumed, head_off, head_len, head_hash, session_id, version, cwd, parent_path, next_seq, last_entry";

/** What decides whether a file needs work: one narrow query for every indexed file (rows as arrays: far cheaper than objects). */
interface Stamp {
	size: number;
	mtime: number;
	root: string;
}

function knownStamps(db: Database): Map<string, Stamp> {
	const stamps = new Map<string, Stamp>();
	for (const [path, size, mtime, root] of db.exec("SELECT path, size, mtime, root FROM sessions")[0]?.values ?? []) {
		stamps.set(path as string, { size: size as number, mtime: mtime as number, root: root as string });
	}
	return stamps;
}

/** The indexed row of one file, read inside the write transaction (another process may have indexed it meanwhile). */
function knownFile(db: Database, path: string): KnownFile | undefined {
	return queryAll<KnownFile>(db, `SELECT ${KNOWN_COLUMNS} FROM sessions WHERE path = ?`, [path])[0];
}

function unchanged(file: SessionFileInfo, known: Stamp | undefined): boolean {
	return known !== undefined && known.size === file.size && known.mtime === Math.floor(file.mtimeMs);
}

/**
 * Bring the index up to date with the source. Never throws for bad data; a failure becomes a warning.
 * What needs work is decided from one read, so a sync that finds nothing new writes nothing. The work is
 * committed in batches of about `batchMs`, each one write transaction that first re-reads what is indexed
 * (another process may have indexed the same files meanwhile), so readers are never shut out for long.
 */
export async function syncIndex(db: Database, source: SessionSource, options: SyncOptions = {}): Promise<SyncReport> {
	const started = Date.now();
	const report = emptyReport();
	const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
	const tx = options.transactions ?? transactions();
	const batchMs = options.batchMs ?? DEFAULTS.syncBatchMs;
	let walk;
	try {
		walk = await source.walk();
	} catch (error) {
		report.warnings.push({ kind: "sync-failed", error: errorMessage(error) });
		report.durationMs = Date.now() - started;
		return report;
	}
	report.warnings.push(...walk.warnings);
	for (const s of walk.skipped) skip(report, s);
	report.filesSeen = walk.files.length;

	let known: Map<string, Stamp>;
	try {
		known = tx.read(db, () => knownStamps(db));
	} catch (error) {
		report.warnings.push({ kind: "sync-failed", error: errorMessage(error) });
		report.durationMs = Date.now() - started;
		return report;
	}
	// Oldest first, so that entry rowids follow recency (newest-window ranking relies on it).
	const files = [...walk.files].sort((a, b) => a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	const todo: SessionFileInfo[] = [];
	let done = 0;
	for (const file of files) {
		if (file.size > maxFileBytes) {
			skip(report, { path: file.path, reason: "oversized", detail: `${file.size} bytes` });
			done++;
		} else if (unchanged(file, known.get(file.path))) {
			report.unchanged++;
			done++;
		} else todo.push(file);
	}
	const seen = new Set(walk.files.map((f) => f.path));
	const complete = new Set(walk.completeRoots);
	const missing = new Set(walk.missingRoots ?? []);
	const unseen = [...known.entries()].filter(([path]) => !seen.has(path));
	const gone = unseen.filter(([, k]) => complete.has(k.root)).map(([path]) => path);
	const missingWithFiles = [...new Set(unseen.filter(([, k]) => missing.has(k.root)).map(([, k]) => k.root))];
	if (missingWithFiles.length > 0) {
		report.warnings.push({ kind: "incomplete-walk", roots: missingWithFiles, message: `session folder missing: ${missingWithFiles.join(", ")}; its sessions are kept` });
	}
	if (done > 0) options.onProgress?.({ done, total: walk.files.length, bytesRead: 0, path: files[done - 1]?.path ?? "" });

	let entriesIndexed = 0;
	let next = 0;
	/** Vocabulary words committed by this sync's earlier batches: each batch need not write them again. */
	const vocabulary = new Set<string>();
	let full = false;
	const maxIndex = options.maxIndexBytes ?? Number.POSITIVE_INFINITY;
	try {
		while (next < todo.length || gone.length > 0) {
			await tx.beginWrite(db);
			const writer = new SessionWriter(db, vocabulary);
			try {
				const sync = new FileSync(db, source, writer, report);
				const batchStarted = Date.now();
				let inBatch = 0;
				while (next < todo.length && (inBatch++ === 0 || Date.now() - batchStarted < batchMs)) {
					if (options.signal?.aborted) break;
					const file = todo[next++];
					// A snapshot index lives in one in-memory array that is copied on save: stop before its ceiling, never crash at it.
					const size = !full && Number.isFinite(maxIndex) && next % 32 === 1 ? indexBytes(db) : 0;
					if (size > maxIndex) {
						full = true;
						report.warnings.push({
							kind: "index-near-ceiling",
							indexBytes: size,
							limitBytes: maxIndex,
							message: `the index reached ${Math.round(size / 1e6)} MB, its limit of ${Math.round(maxIndex / 1e6)} MB; sessions not yet indexed are skipped; index fewer session folders (--only-sessions-dir) or give a project its own --index`,
						});
					}
					const before = knownFile(db, file.path);
					if (full && before?.size !== file.size) skip(report, { path: file.path, reason: "index-full" });
					else if (unchanged(file, before)) report.unchanged++;
					else {
						try {
							await sync.file(file, before);
						} catch (error) {
							skip(report, { path: file.path, reason: "unreadable", detail: errorMessage(error) });
						}
					}
					options.onProgress?.({ done: ++done, total: walk.files.length, bytesRead: report.bytesRead, path: file.path });
				}
				const last = next >= todo.length || options.signal?.aborted === true;
				if (last) {
					for (const path of gone.splice(0)) {
						const row = knownFile(db, path);
						if (!row) continue;
						writer.purgeSession(row.id);
						report.purged++;
					}
				}
				writer.finish();
				entriesIndexed = writer.entriesIndexed + entriesIndexed;
				if (last && changedBy(report)) {
					setMeta(db, "last_sync", JSON.stringify({ at: new Date().toISOString(), skipped: report.skipped }));
					setMeta(db, "generation", String(Number(metaValue(db, "generation") ?? 0) + 1));
				}
				await tx.commit(db);
				for (const word of writer.seenWords) vocabulary.add(word);
			} catch (error) {
				tx.rollback(db);
				throw error;
			}
			if (options.signal?.aborted) {
				report.interrupted = next < todo.length;
				break;
			}
		}
	} catch (error) {
		report.warnings.push({ kind: "sync-failed", error: errorMessage(error) });
	}
	report.entriesIndexed = entriesIndexed;
	report.changed = changedBy(report);
	report.durationMs = Date.now() - started;
	return report;
}

function changedBy(report: SyncReport): boolean {
	return report.added + report.grown + report.rewritten + report.purged + report.touched + report.retitled > 0;
}

/** Decides what to do with one file and does it. */
class FileSync {
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
		// A gzipped archive cannot be read from an offset: it is indexed again whole when it changes.
		if (!isGzip(file.path) && file.size >= known.consumed && (await this.headUnchanged(file, known))) {
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
		const changed = queryAll<{ n: number }>(this.db, "SELECT count(*) AS n FROM sessions WHERE id = ? AND name IS NOT ?", [known.id, title])[0]?.n ?? 0;
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
		const chunk = splitLines(bytes);
		const state = newParseState();
		// A gzipped archive's offsets are in its inflated bytes, which cannot be read in part: its entries keep no range.
		const parsed = parseSessionLines(chunk.lines, state, isGzip(file.path) ? undefined : { ...chunk, base: 0 });
		this.report.malformedLines += parsed.malformedLines;
		this.report.pendingBytes += chunk.pendingBytes;
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
				header?.cwd ?? null,
				toEpochMs(header?.timestamp) ?? null,
				header?.parentSession ?? null,
				header?.parentSession ? (parentIdOf(header.parentSession) ?? null) : null,
				state.nextSeq,
				agentOfFile(headOff, file.agent),
				file.kind ?? "session",
				file.spawnedBy ?? null,
				header?.title ?? null,
			],
		);
		const session = Number(this.db.exec("SELECT last_insert_rowid()")[0].values[0][0]);
		this.writer.addEntries(session, parsed.entries);
		this.writer.refreshSession(session);
	}

	private async grow(file: SessionFileInfo, known: KnownFile): Promise<void> {
		const bytes = await this.read(file, known.consumed, file.size);
		this.report.filesParsed++;
		const chunk = splitLines(bytes);
		const state: ParseState = {
			header: known.session_id !== null && known.version !== null ? { id: known.session_id, version: known.version } : undefined,
			nextSeq: known.next_seq,
			lastId: known.last_entry,
		};
		const parsed = parseSessionLines(chunk.lines, state, { ...chunk, base: known.consumed });
		this.report.malformedLines += parsed.malformedLines;
		this.report.pendingBytes += chunk.pendingBytes;
		this.db.run(
			"UPDATE sessions SET size = ?, mtime = ?, consumed = ?, malformed = malformed + ?, next_seq = ?, session_id = coalesce(session_id, ?) WHERE id = ?",
			[file.size, Math.floor(file.mtimeMs), known.consumed + chunk.consumedBytes, parsed.malformedLines, state.nextSeq, state.header?.id ?? null, known.id],
		);
		this.writer.addEntries(known.id, parsed.entries);
		this.writer.refreshSession(known.id);
	}
}
