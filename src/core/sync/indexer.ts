/**
 * Incremental sync: new files are parsed whole, grown files from their last consumed byte, rewritten or
 * shrunk files again from the start; each file's copy in the archive is brought up to date beside it. A
 * vanished file is settled only after a complete walk of its root: gone (kept, read from the archive) when the
 * archive holds it, purged when nothing does.
 */

import { DEFAULTS } from "../defaults.js";
import { errorMessage } from "../errors.js";
import type { ArchiveState, KeptBytes, SessionArchive } from "../parse/archive.js";
import type { SessionFileInfo, SessionSource, WalkResult } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { FTS_TABLES } from "../store/schema.js";
import { indexBytes, metaValue, setMeta } from "../store/stats.js";
import { type Transactions, transactions } from "../store/transactions.js";
import { documentOf, FileSync, knownFile, readInChunks } from "./file-sync.js";
import { archivedToIndex, type FromArchive, isForgotten, needsKeeping, purgeMoved, type Stamp, settleUnseen, unseenFiles } from "./gone.js";
import { archiveMark, everyIndexedWalked, walkedFacts } from "./in-step.js";
import { changedBy, emptyReport, type SyncProgress, type SyncReport, skip } from "./report.js";
import { SessionWriter } from "./session-writer.js";
import { knownStamps, remakeStamps, stampsStale } from "./stamps.js";
import { pricesStale, reprice } from "./usage-writer.js";

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
	/** Clock for the time a file is found gone (tests). */
	now?: () => number;
	/** A sync that read at least this many bytes merges the full-text indexes after (default `DEFAULTS.ftsOptimizeBytes`). */
	optimizeBytes?: number;
	/** Leaf pages the merge after writes per write transaction (default `DEFAULTS.ftsMergePages`). */
	mergePages?: number;
	/** Applied to every text of an entry before it is stored or indexed: a published shard holds no secret (src/node/team). */
	redact?: (text: string) => string;
}

function unchanged(file: SessionFileInfo, known: Pick<Stamp, "size" | "mtime"> | undefined): boolean {
	return known !== undefined && known.size === file.size && known.mtime === Math.floor(file.mtimeMs);
}

/** The archive's state, or undefined (with a warning) when it cannot be read: the sync goes on without it. */
async function archiveState(archive: SessionArchive | undefined, report: SyncReport): Promise<ArchiveState | undefined> {
	if (!archive) return undefined;
	try {
		return await archive.state();
	} catch (error) {
		report.warnings.push({ kind: "archive-failed", error: `cannot read the archive ${archive.describe()}: ${errorMessage(error)}` });
		return undefined;
	}
}

/** The source a batch reads through: a file indexed from the archive is read from it (a rendered session's copy is its document). */
function readingFrom(source: SessionSource, archive: SessionArchive | undefined, fromArchive: ReadonlySet<string>): SessionSource {
	if (!archive || fromArchive.size === 0) return source;
	return {
		...source,
		read: (path, start, end) => (fromArchive.has(path) ? archive.read(path, start, end) : source.read(path, start, end)),
		readDocument: (path) => (fromArchive.has(path) ? archive.read(path, 0, Number.MAX_SAFE_INTEGER) : documentOf(source, path)),
	};
}

/**
 * What a file's copy is made of: its bytes, or for a session rendered from rows the document the index just parsed
 * (`parsed`), else rendered now (the index held it before its copy was kept).
 */
async function keptBytes(source: SessionSource, file: SessionFileInfo, parsed: Uint8Array | undefined): Promise<KeptBytes> {
	if (!file.rendered) return { size: file.size, read: (start, end) => source.read(file.path, start, end) };
	const document = parsed ?? (await documentOf(source, file.path));
	return { size: document.length, read: async (start, end) => document.subarray(start, end) };
}

/**
 * Merge each full-text index into one segment, a step at a time. A sync commits every `syncBatchMs`, and each
 * commit leaves small segments that FTS5's automerge folds only partly: a first index of 500 MB left tens of
 * them, and every query looks a word up in each (the trigram lookups of substrings most: 1–3 ms a word, 0.1
 * after). Merged, the benchmark's queries took a median 14% less CPU at 500 MB, up to 40% for common words, NOT
 * and questions; the merge cost about 5% of that first index's time (5.3 s of 113 s, wasm). FTS5's `merge` with a
 * negative count is its optimize in steps of that many pages, each step here a write transaction of its own, so
 * readers and other writers get in between (`DEFAULTS.ftsMergePages`: 0.28 s at most at 500 MB, where one
 * 'optimize' held the file for 2.4 s).
 */
async function optimizeFullText(db: Database, tx: Transactions, report: SyncReport, options: SyncOptions): Promise<void> {
	const pages = Math.max(1, Math.trunc(options.mergePages ?? DEFAULTS.ftsMergePages));
	const changes = () => Number(db.exec("SELECT total_changes()")[0]?.values[0]?.[0] ?? 0);
	for (const table of FTS_TABLES) {
		for (let merged = true; merged && !options.signal?.aborted; ) {
			await tx.beginWrite(db);
			try {
				const before = changes();
				db.run(`INSERT INTO ${table}(${table}, rank) VALUES('merge', ${-pages})`);
				// FTS5's own test of a merge that did nothing: fewer than two rows changed.
				merged = changes() - before >= 2;
				await tx.commit(db);
			} catch (error) {
				tx.rollback(db);
				report.warnings.push({ kind: "sync-failed", error: `could not merge the full-text index: ${errorMessage(error)}` });
				return;
			}
		}
	}
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
	let walk: WalkResult;
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
	/** Estimates made from the prices of an older lookback are made again, once. */
	let stalePrices = false;
	// Taken before what the index holds is read: a commit or a copy made after it makes the next token differ.
	const mark = archiveMark(source.archive);
	try {
		known = tx.read(db, () => {
			stalePrices = pricesStale(db);
			return knownStamps(db);
		});
	} catch (error) {
		report.warnings.push({ kind: "sync-failed", error: errorMessage(error) });
		report.durationMs = Date.now() - started;
		return report;
	}
	const archive = source.archive;
	const oversized = (file: SessionFileInfo) => file.size > maxFileBytes && !readInChunks(file);
	const now = options.now ?? Date.now;
	/** What the sync has to do, as the archive's state decides (undefined: none read, or none to read). */
	const plan = (kept: ArchiveState | undefined) => {
		/** The copies to bring up to date: none when the archive is turned off. */
		const copies = archive?.keeping ? kept : undefined;
		// A forgotten session is never indexed again, even while its agent keeps the file.
		const live = kept ? walk.files.filter((f) => !isForgotten(kept.forgotten, f.path)) : walk.files;
		const fromArchive: FromArchive[] = kept ? archivedToIndex(kept, source, walk, known, now()) : [];
		const todo: SessionFileInfo[] = [];
		const tooLarge: SessionFileInfo[] = [];
		let unchangedFiles = 0;
		let workBytes = 0;
		for (const file of live.length === walk.files.length && fromArchive.length === 0 ? live : [...live, ...fromArchive]) {
			const stamp = known.get(file.path);
			// Another agent's append-only files are read in bounded chunks whatever their size (Codex rollouts reach 2 GB).
			if (oversized(file)) tooLarge.push(file);
			else if (unchanged(file, stamp) && stamp?.goneAt === null && !needsKeeping(copies, file)) unchangedFiles++;
			else {
				todo.push(file);
				workBytes += stamp && file.size >= stamp.size ? file.size - stamp.size : file.size;
			}
		}
		// Oldest first, so that entry rowids follow recency (newest-window ranking relies on it). Only what is read is sorted.
		todo.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
		return { kept, live, fromArchive, todo, tooLarge, unchangedFiles, workBytes };
	};
	const walked = mark === undefined ? undefined : walkedFacts(source, walk);
	const noted = mark !== undefined && walked !== undefined && archive?.inStep?.(mark, walked) === true;
	let work = plan(noted ? undefined : await archiveState(archive, report));
	/** The paths walked, made when first needed. */
	let seenPaths: Set<string> | undefined;
	const seen = () => (seenPaths ??= new Set(walk.files.map((f) => f.path)));
	// Nothing changed since a sync that read the archive and found nothing to do (every file as indexed, every indexed
	// file walked): its state would decide nothing now, and is not read. Otherwise it is, and decides.
	const inStep = noted && work.todo.length === 0 && everyIndexedWalked(known, walk, source, seen());
	if (noted && !inStep) work = plan(await archiveState(archive, report));
	const { kept, live, fromArchive, todo, workBytes } = work;
	const copies = archive?.keeping ? kept : undefined;
	for (const file of work.tooLarge) skip(report, { path: file.path, reason: "oversized", detail: `${file.size} bytes` });
	report.unchanged += work.unchangedFiles;
	let done = walk.files.length - live.length + work.tooLarge.length + work.unchangedFiles;
	const goneSince = new Map(fromArchive.map((f) => [f.path, f.goneAt]));
	// An archive that cannot be read settles nothing: a file it may hold is neither purged nor marked gone. (One in
	// step is not read: nothing is unseen then.)
	const unseen = archive && !kept ? [] : unseenFiles(known, { ...walk, files: live }, source, kept);
	if (kept && mark !== undefined && walked !== undefined && !stalePrices && todo.length === 0 && unseen.length === 0)
		if (fromArchive.length === 0 && everyIndexedWalked(known, walk, source, seen())) archive?.noteInStep?.(mark, walked);
	const missing = new Set(walk.missingRoots ?? []);
	const missingWithFiles =
		missing.size === 0
			? []
			: [...new Set([...known.entries()].filter(([p, k]) => !seen().has(p) && missing.has(k.root)).map(([, k]) => k.root))];
	if (missingWithFiles.length > 0) {
		report.warnings.push({
			kind: "incomplete-walk",
			roots: missingWithFiles,
			message: `session folder missing: ${missingWithFiles.join(", ")}; its sessions are kept`,
		});
	}
	// Said once the work is known, before any of it: a host decides from `workBytes` whether to wait for this sync.
	const total = walk.files.length + fromArchive.length;
	if (total > 0) options.onProgress?.({ done, total, bytesRead: 0, workBytes, path: "" });

	let entriesIndexed = 0;
	let entriesCopied = 0;
	let next = 0;
	/** Vocabulary words committed by this sync's earlier batches: each batch need not write them again. */
	const vocabulary = new Set<string>();
	let full = false;
	let archiveWarned = false;
	const archiveProblem = (error: unknown) => {
		if (!archiveWarned) report.warnings.push({ kind: "archive-failed", error: errorMessage(error) });
		archiveWarned = true;
	};
	const maxIndex = options.maxIndexBytes ?? Number.POSITIVE_INFINITY;
	const reading = readingFrom(source, archive, new Set(goneSince.keys()));
	/**
	 * The archive's batch finishing (its copies synced, then its manifest lines) while the index commits and the
	 * next batch starts: the two are independent (a copy behind its file is made again by a later sync).
	 */
	let archived: Promise<void> = Promise.resolve();
	try {
		while (next < todo.length || unseen.length > 0 || stalePrices) {
			await tx.beginWrite(db);
			const writer = new SessionWriter(db, vocabulary, options.redact);
			let archiving = false;
			try {
				if (archive?.keeping && kept) {
					await archived;
					try {
						archiving = await archive.begin();
						if (!archiving) archiveProblem(`the archive ${archive.describe()} is busy: copies are brought up to date by a later sync`);
					} catch (error) {
						archiveProblem(error);
					}
				}
				if (stalePrices && pricesStale(db)) reprice(db);
				stalePrices = false;
				const sync = new FileSync(db, reading, writer, report);
				const keeping: Promise<void>[] = [];
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
					const goneAt = goneSince.get(file.path);
					let readable = true;
					if (full && before?.size !== file.size) skip(report, { path: file.path, reason: "index-full" });
					else if (unchanged(file, before)) report.unchanged++;
					else {
						try {
							await sync.file(file, before);
							if (goneAt !== undefined) {
								db.run("UPDATE sessions SET gone_at = ? WHERE path = ?", [goneAt, file.path]);
								report.fromArchive++;
							}
						} catch (error) {
							readable = false;
							skip(report, { path: file.path, reason: "unreadable", detail: errorMessage(error) });
						}
					}
					if (goneAt === undefined && before && before.gone_at !== null) {
						// A gone session whose file came back is live again.
						db.run("UPDATE sessions SET gone_at = NULL WHERE id = ?", [before.id]);
						if (archiving) archive?.markGone(file.path, undefined);
						report.returned++;
					}
					// The document a rendered session was parsed from, taken whether kept or not (it is not held past its file).
					const parsed = sync.takeDocument(file.path);
					// A file the index could not read is not kept either (the report names it once).
					if (archiving && archive && readable && goneAt === undefined && needsKeeping(copies, file)) {
						const row = knownFile(db, file.path);
						const facts = { sessionId: row?.session_id ?? undefined, agent: row?.agent };
						keeping.push(
							keptBytes(source, file, parsed)
								.then((bytes) => archive.keep(file, bytes, facts))
								.then((r) => {
									if (r.how !== "unchanged") report.archivedFiles++;
									report.archiveBytesRead += r.bytesRead;
									report.archiveBytesWritten += r.bytesWritten;
								}, archiveProblem),
						);
					}
					options.onProgress?.({ done: ++done, total, bytesRead: report.bytesRead, workBytes, path: file.path });
				}
				const last = next >= todo.length || options.signal?.aborted === true;
				if (last) {
					const at = now();
					for (const u of unseen.splice(0)) if (settleUnseen(db, writer, u, at, report) && archiving) archive?.markGone(u.path, at);
					purgeMoved(db, writer, report);
					// After this sync's own changes, which the cache then holds.
					if (stampsStale(db)) remakeStamps(db);
				}
				if (archiving && archive) {
					archiving = false;
					archived = Promise.all(keeping).then(() => archive.commit().catch(archiveProblem));
				}
				writer.finish();
				entriesIndexed = writer.entriesIndexed + entriesIndexed;
				entriesCopied = writer.entriesCopied + entriesCopied;
				if (last && changedBy(report)) {
					setMeta(db, "last_sync", JSON.stringify({ at: new Date().toISOString(), skipped: report.skipped }));
					setMeta(db, "generation", String(Number(metaValue(db, "generation") ?? 0) + 1));
				}
				await tx.commit(db);
				for (const word of writer.seenWords) vocabulary.add(word);
			} catch (error) {
				if (archiving) await archive?.release();
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
	if (!report.interrupted && report.bytesRead >= (options.optimizeBytes ?? DEFAULTS.ftsOptimizeBytes))
		await optimizeFullText(db, tx, report, options);
	await archived;
	report.entriesIndexed = entriesIndexed;
	report.entriesCopied = entriesCopied;
	report.changed = changedBy(report);
	report.durationMs = Date.now() - started;
	return report;
}
