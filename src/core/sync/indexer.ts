/**
 * Incremental sync: new files are parsed whole, grown files from their last consumed byte, rewritten or
 * shrunk files again from the start; a vanished file is purged only after a complete walk of its root.
 */

import { DEFAULTS } from "../defaults.js";
import { errorMessage } from "../errors.js";
import type { SessionFileInfo, SessionSource, WalkResult } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { indexBytes, metaValue, setMeta } from "../store/stats.js";
import { type Transactions, transactions } from "../store/transactions.js";
import { FileSync, knownFile, readInChunks } from "./file-sync.js";
import { changedBy, emptyReport, type SyncProgress, type SyncReport, skip } from "./report.js";
import { SessionWriter } from "./session-writer.js";
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
}

/** What decides whether a file needs work: one narrow query for every indexed file (rows as arrays: far cheaper than objects). */
interface Stamp {
	size: number;
	mtime: number;
	root: string;
	agent: string;
}

function knownStamps(db: Database): Map<string, Stamp> {
	const stamps = new Map<string, Stamp>();
	for (const [path, size, mtime, root, agent] of db.exec("SELECT path, size, mtime, root, agent FROM sessions")[0]?.values ?? []) {
		stamps.set(path as string, { size: size as number, mtime: mtime as number, root: root as string, agent: agent as string });
	}
	return stamps;
}

function unchanged(file: SessionFileInfo, known: Pick<Stamp, "size" | "mtime"> | undefined): boolean {
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
	// Oldest first, so that entry rowids follow recency (newest-window ranking relies on it).
	const files = [...walk.files].sort((a, b) => a.mtimeMs - b.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	const todo: SessionFileInfo[] = [];
	let done = 0;
	for (const file of files) {
		// Another agent's append-only files are read in bounded chunks whatever their size (Codex rollouts reach 2 GB).
		if (file.size > maxFileBytes && !readInChunks(file)) {
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
	// A session of an agent the person left out is forgotten, wherever it was found.
	const leftOut = new Set<string>(source.leftOut?.() ?? []);
	const gone = [...known.entries()]
		.filter(([path, k]) => leftOut.has(k.agent) || (!seen.has(path) && complete.has(k.root)))
		.map(([path]) => path);
	const missingWithFiles = [...new Set(unseen.filter(([, k]) => missing.has(k.root)).map(([, k]) => k.root))];
	if (missingWithFiles.length > 0) {
		report.warnings.push({
			kind: "incomplete-walk",
			roots: missingWithFiles,
			message: `session folder missing: ${missingWithFiles.join(", ")}; its sessions are kept`,
		});
	}
	if (done > 0) options.onProgress?.({ done, total: walk.files.length, bytesRead: 0, path: files[done - 1]?.path ?? "" });

	let entriesIndexed = 0;
	let next = 0;
	/** Vocabulary words committed by this sync's earlier batches: each batch need not write them again. */
	const vocabulary = new Set<string>();
	let full = false;
	const maxIndex = options.maxIndexBytes ?? Number.POSITIVE_INFINITY;
	try {
		while (next < todo.length || gone.length > 0 || stalePrices) {
			await tx.beginWrite(db);
			const writer = new SessionWriter(db, vocabulary);
			try {
				if (stalePrices && pricesStale(db)) reprice(db);
				stalePrices = false;
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
