/**
 * The copy of the index `lookback serve` hands to the page: taken under a SHARED lock (a consistent file, the
 * live index never written), then made read-optimised in a private folder: FTS5 `optimize` merges each
 * term's doclist into one b-tree, a covering index packs the columns a search joins its matches to, and the
 * copy is laid out for reading by ranges (snapshot-layout.ts: 64 KiB pages, what every query reads at the end,
 * for the page to prefetch), so that a page reading the file by ranges finds what one query needs in few
 * requests (see README, "The viewer"). Made again when the index changed.
 */

import { copyFileSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { CANDIDATE_FIELDS, CANDIDATE_INDEX, type Database, indexBusyError, openAt } from "../core/index.js";
import { loadEngine } from "./engine.js";
import { waitShared } from "./engine-locks.js";
import { enginePathOf } from "./file-storage.js";
import { IndexLocks } from "./index-locks.js";
import { type ByteRanges, layOutSnapshot, type SnapshotReads } from "./snapshot-layout.js";

export interface ReadSnapshot {
	/** The file served. */
	path: string;
	/** Strong validator of the file served now (changes whenever it is made again). */
	etag: string;
	/** Byte ranges of the file served now that the page should prefetch, most useful first (none for a file served as it was). */
	prefetch: ByteRanges;
	/** Byte ranges of it the page should read before it opens the index (none for a file served as it was). */
	open: ByteRanges;
	/** Make the copy again if the index changed since; resolves when the served file is current. */
	refresh(): Promise<void>;
	remove(): void;
}

/**
 * A search joins each of its ranked matches (up to the newest 1,000) to its `entries` row for the columns of
 * the core's CANDIDATE_FIELDS, in rank order: over ranges, rows of ~640 bytes scattered over the newest part
 * of the table, one request each. The same columns in a covering index are ~50 bytes a row, so those lookups
 * share pages. Measured on a 231 MB snapshot, the 19 benchmark queries without a project filter, each in a fresh
 * worker: 12,607 → 8,407 requests and 455 → 216 MB; a common word since 30 days (the window widening until
 * it has enough sessions) 1,892 requests / 148 MB → 568 / 18 MB; a rare word 122 → 164 requests (its bodies are
 * then read apart from its candidates). A search names the index where the file has it (CANDIDATE_INDEX). Best
 * effort: where the columns differ, the snapshot is served without it.
 */
function addCandidateIndex(db: Database): void {
	try {
		db.run(`CREATE INDEX ${CANDIDATE_INDEX} ON entries(${CANDIDATE_FIELDS.join(", ")})`);
	} catch {
		// not this schema's columns: no index, the rest of the snapshot as before
	}
}

/**
 * Make the read-optimised copy of the index at `to` (a file in a folder of its own, which also holds the
 * intermediate copies): copied under a SHARED lock, optimised, laid out for ranges. Heavy for a large index
 * (seconds): `lookback serve` has its indexer process make it (indexer-work.ts). Resolves with the byte
 * ranges the page should read ahead (none for a file handed out as it was).
 */
export async function makeReadSnapshot(indexPath: string, to: string): Promise<SnapshotReads> {
	const dir = dirname(to);
	const raw = join(dir, "copy.db");
	const optimised = join(dir, "optimised.db");
	rmSync(optimised, { force: true });
	const locks = new IndexLocks(resolve(indexPath));
	if (!waitShared(locks)) throw indexBusyError();
	try {
		copyFileSync(indexPath, raw);
	} finally {
		locks.release("none");
	}
	const engine = await loadEngine();
	let reads: SnapshotReads = { open: [], prefetch: [] };
	try {
		const db = openAt(engine, enginePathOf(engine, raw));
		try {
			db.run("INSERT INTO entries_fts(entries_fts) VALUES ('optimize')");
			db.run("INSERT INTO vocab_fts(vocab_fts) VALUES ('optimize')");
			addCandidateIndex(db);
			reads = layOutSnapshot(db, enginePathOf(engine, optimised));
		} finally {
			db.close();
		}
		renameSync(optimised, to);
	} catch {
		// Not an index this lookback can optimise (foreign, newer, damaged): hand it out as it is, for the page to say what is wrong.
		renameSync(raw, to);
		reads = { open: [], prefetch: [] };
	}
	rmSync(raw, { force: true });
	return reads;
}

/** The copies `lookback serve` hands out, made by `make` (default: here, by `makeReadSnapshot`). */
export function readSnapshots(
	indexPath: string,
	make: (indexPath: string, to: string) => Promise<SnapshotReads> = makeReadSnapshot,
): ReadSnapshot {
	const dir = mkdtempSync(join(tmpdir(), "lookback-serve-"));
	const served = join(dir, "index.db");
	let copiedFrom = "";
	let made = 0;
	let running: Promise<void> | undefined;

	const remake = async (stamp: string) => {
		({ open: snapshot.open, prefetch: snapshot.prefetch } = await make(indexPath, served));
		copiedFrom = stamp;
		const st = statSync(served);
		snapshot.etag = `"${++made}-${st.size}-${Math.round(st.mtimeMs)}"`;
	};

	const snapshot: ReadSnapshot = {
		path: served,
		etag: "",
		prefetch: [],
		open: [],
		async refresh() {
			while (running) await running;
			const st = statSync(indexPath);
			const stamp = `${st.ino} ${st.size} ${st.mtimeMs}`;
			if (stamp === copiedFrom) return;
			running = remake(stamp).finally(() => (running = undefined));
			await running;
		},
		remove: () => rmSync(dir, { recursive: true, force: true }),
	};
	return snapshot;
}
