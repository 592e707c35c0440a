/**
 * The snapshot `lookback serve` hands the page: the same database as the index, laid out for reading by ranges
 * (64 KiB pages, what nearly every query reads at the end for the page to prefetch, what opening and a first view
 * read for it to fetch before it opens the index), and what a page's first query and the usage dashboard then read,
 * counted through the page's own ranged file (web/src/range-files.ts) over the file on disk.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { benchQueries } from "../../bench/queries.mjs";
import { LookbackIndex, mountEngineFiles } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { openNodeIndex } from "../../src/node/open.js";
import { type ReadSnapshot, readSnapshots } from "../../src/node/read-snapshot.js";
import { SNAPSHOT_PAGE_BYTES } from "../../src/node/snapshot-layout.js";
import { RangeFile, rangeFiles } from "../../web/src/range-files.js";
import { readOnlyStorage } from "../../web/src/read-only-storage.js";
import { FIRST_PAGE } from "../../web/src/widening-search.js";

const Native = createRequire(import.meta.url)("better-sqlite3");
let indexPath: string;
let snapshot: ReadSnapshot;

let dir: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "snapshot-layout-"));
	generateCorpus({ out: dir, mb: 16, seed: 3 });
	indexPath = join(dir, "index.db");
	const opened = await openNodeIndex({ indexPath, sessionsDirs: [join(dir, "sessions")], onlySessionsDirs: true, env: {}, engine: "wasm" });
	await opened.index.sync(opened.source);
	opened.index.close();
	snapshot = readSnapshots(indexPath);
	await snapshot.refresh();
}, 300_000);

afterAll(() => {
	snapshot?.remove();
	rmSync(dir, { recursive: true, force: true });
});

/** FTS5 tables whose segments the snapshot merges (`optimize`): their words, documents and positions are compared, not their blocks. */
const FTS = ["entries_fts", "entries_deep", "vocab_fts"];

/**
 * Each plain table's rows, hashed in a fixed order (an index's layout may differ, never its rows), and each FTS5
 * table's terms with their documents and occurrences (its own vocabulary, fts5vocab).
 */
function tableHashes(path: string): Map<string, string> {
	const db = new Native(path, { readonly: true });
	const hash = (sql: string) =>
		createHash("sha256")
			.update(
				(db.prepare(sql).raw().all() as unknown[][])
					.map((row) => JSON.stringify(row.map((v) => (Buffer.isBuffer(v) ? v.toString("base64") : v))))
					.sort()
					.join("\n"),
			)
			.digest("hex");
	try {
		const tables = (
			db
				.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%'")
				.all() as { name: string }[]
		).filter(({ name }) => !FTS.some((fts) => name === `${fts}_data` || name === `${fts}_idx`));
		const hashes = new Map(tables.map(({ name }) => [name, hash(`SELECT * FROM "${name}"`)]));
		for (const fts of FTS) {
			db.exec(`CREATE VIRTUAL TABLE temp.${fts}_words USING fts5vocab(main, ${fts}, 'row')`);
			hashes.set(`${fts} words`, hash(`SELECT term, doc, cnt FROM temp.${fts}_words`));
		}
		return hashes;
	} finally {
		db.close();
	}
}

/** The snapshot read through the page's ranged file, each request counted: what the page fetches ahead fetched first, or not. */
async function servedIndex(prefetch: boolean, preload = false) {
	const size = statSync(snapshot.path).size;
	const fd = openSync(snapshot.path, "r");
	const read = (start: number, end: number) => {
		const body = new Uint8Array(end - start + 1);
		readSync(fd, body, 0, body.length, start);
		return { status: 206, body: body.buffer };
	};
	const file = new RangeFile("index.db", size, null, { chunkBytes: SNAPSHOT_PAGE_BYTES, cacheBytes: 48 << 20 }, read);
	if (preload) await file.preload(snapshot.open, { budget: 6 << 20, transport: async (start, end) => read(start, end) });
	if (prefetch)
		await file.prefetch(
			snapshot.prefetch.map(([a, b]) => [a, b]),
			{ budget: 16 << 20, transport: async (start, end) => read(start, end) },
		);
	const engine = await loadEngine();
	const mount = mountEngineFiles(engine.FS, rangeFiles("index.db", file), `layout${prefetch ? 1 : 0}${preload ? 1 : 0}`, {
		reads: 0,
		bytesRead: 0,
		writes: 0,
		fsyncs: 0,
	});
	const index = await LookbackIndex.open({ sql: engine, storage: readOnlyStorage(engine, `${mount}/index.db`, "the snapshot") });
	const close = () => {
		index.close();
		closeSync(fd);
	};
	return { index, file, close };
}

describe("the served snapshot", () => {
	it("holds every row of the index, in 64 KiB pages, sound for SQLite and FTS5", () => {
		const [copied, live] = [tableHashes(snapshot.path), tableHashes(indexPath)];
		expect([...copied.keys()].sort()).toEqual([...live.keys()].sort());
		for (const [name, hash] of live) expect(copied.get(name), name).toBe(hash);
		const db = new Native(snapshot.path);
		try {
			expect(db.pragma("page_size", { simple: true })).toBe(SNAPSHOT_PAGE_BYTES);
			expect(db.pragma("quick_check", { simple: true })).toBe("ok");
			for (const table of ["entries_fts", "entries_deep", "vocab_fts"])
				db.exec(`INSERT INTO ${table}(${table}) VALUES ('integrity-check')`);
			const live = new Native(indexPath, { readonly: true });
			expect(db.pragma("user_version", { simple: true })).toBe(live.pragma("user_version", { simple: true }));
			expect(db.pragma("application_id", { simple: true })).toBe(live.pragma("application_id", { simple: true }));
			live.close();
		} finally {
			db.close();
		}
	});

	it("puts every table's root first and what nearly every query reads at the end, where the page prefetches", () => {
		const db = new Native(snapshot.path, { readonly: true });
		const pages = new Map<string, { first: number; last: number }>();
		for (const r of db.prepare("SELECT name, min(pageno) AS first, max(pageno) AS last FROM dbstat GROUP BY name").all() as {
			name: string;
			first: number;
			last: number;
		}[])
			pages.set(r.name, r);
		// Every table and the index of its UNIQUE column are made first; the other indexes after their rows.
		const roots = db
			.prepare(
				"SELECT max(rootpage) AS n FROM sqlite_schema WHERE (type = 'table' AND name NOT LIKE 'sqlite_%') OR name LIKE 'sqlite_autoindex_%'",
			)
			.get() as { n: number };
		db.close();
		const prefetched = (page: number) =>
			snapshot.prefetch.some(([a, b]) => (page - 1) * SNAPSHOT_PAGE_BYTES >= a && page * SNAPSHOT_PAGE_BYTES <= b);
		expect(snapshot.prefetch[0]).toEqual([0, roots.n * SNAPSHOT_PAGE_BYTES]);
		for (const name of ["entries_candidates", "entries_fts_docsize", "vocab_fts_data", "sessions"]) {
			const at = pages.get(name)!;
			expect(prefetched(at.last), name).toBe(true);
			// A table of one page is its root.
			expect(at.first === at.last || at.last > pages.get("entries")!.last, `${name} after the stored text`).toBe(true);
		}
		// The bulk is never prefetched but for its root.
		for (const name of ["entries", "entries_fts_data"]) expect(prefetched(pages.get(name)!.last), name).toBe(false);
		// The most read last: the page takes the ranges in this order.
		expect(snapshot.prefetch[1][1]).toBe(statSync(snapshot.path).size);
		// Before it opens the index, the page fetches the roots, the sessions and their usage sums, and nothing else.
		const opened = (page: number) =>
			snapshot.open.some(([a, b]) => (page - 1) * SNAPSHOT_PAGE_BYTES >= a && page * SNAPSHOT_PAGE_BYTES <= b);
		expect(snapshot.open[0]).toEqual(snapshot.prefetch[0]);
		for (const name of ["sessions", "usage_hours", "session_tools"]) expect(opened(pages.get(name)!.last), name).toBe(true);
		for (const name of ["entries", "entries_fts_data", "entries_candidates", "vocab", "usage"])
			expect(opened(pages.get(name)!.last), name).toBe(false);
	});

	it("answers every benchmark query as the index does", async () => {
		const live = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
		const served = await servedIndex(false);
		try {
			for (const q of benchQueries({ project: "api" })) {
				const request = { query: q.query, since: q.since, project: q.project, limit: 20 };
				expect(served.index.search(request), q.name).toEqual(live.search(request));
			}
		} finally {
			live.close();
			served.close();
		}
	});

	it("opens the index and sums the usage dashboard from what it fetched before, with no request of its own", async () => {
		const cold = await servedIndex(false);
		const ready = await servedIndex(false, true);
		try {
			const opening = ready.file.counters.requests;
			const dashboard = ready.index.dashboard();
			expect(dashboard).toEqual(cold.index.dashboard());
			expect(dashboard.total.sessions).toBeGreaterThan(0);
			expect(opening + ready.file.counters.requests).toBe(0);
			// Each read of SQLite's a request of its own: what the fetch before saves (a few requests at once for it).
			console.log(
				`opening and the dashboard: ${cold.file.counters.requests} requests one after another cold, none after ${ready.file.prefetched.requests} requests (${(ready.file.prefetched.bytes / 1e6).toFixed(1)} MB) fetched before opening`,
			);
			expect(cold.file.counters.requests).toBeGreaterThan(ready.file.prefetched.requests);
		} finally {
			cold.close();
			ready.close();
		}
	});

	it("answers a first query with a request per hit shown and few more once the prefetch is in", async () => {
		const request = { query: "deadlock", limit: FIRST_PAGE };
		const cold = await servedIndex(false);
		const warm = await servedIndex(true);
		try {
			const count = (s: typeof cold) => {
				const before = s.file.counters.requests;
				const hits = s.index.search(request).results.length;
				return { hits, requests: s.file.counters.requests - before };
			};
			const a = count(cold);
			const b = count(warm);
			console.log(
				`first query, ${b.hits} hits: ${a.requests} requests cold, ${b.requests} after a prefetch of ${warm.file.prefetched.requests} requests, ${(warm.file.prefetched.bytes / 1e6).toFixed(1)} MB (${statSync(snapshot.path).size / 1e6} MB file)`,
			);
			expect(b.hits).toBeGreaterThan(0);
			expect(b.requests).toBeLessThanOrEqual(b.hits + 4);
			expect(b.requests * 2).toBeLessThanOrEqual(a.requests);
			expect(warm.file.prefetched.done).toBe(true);
			expect(warm.file.prefetched.bytes).toBeLessThanOrEqual(16 << 20);
		} finally {
			cold.close();
			warm.close();
		}
	});
});
