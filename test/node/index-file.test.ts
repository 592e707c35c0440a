import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkEngine, LookbackIndex, memoryStorage, type SqlJsStatic } from "../../src/core/index.js";
import { engineDir, hostIo, loadEngine, loadEngineFrom } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { FIXTURES, tempDir } from "../helpers.js";

const source = () => fileSource([{ path: FIXTURES, layout: "nested" }]);

async function indexed(path: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(path) });
	await index.sync(source());
	return index;
}

describe("the index file, opened in place", () => {
	it("commits as it syncs: a second process-like open sees everything with nothing to save", async () => {
		const sql = await loadEngine();
		const path = join(tempDir(), "lookback", "index.db");
		const first = await indexed(path);
		expect(first.dirty).toBe(false);
		expect(await first.save()).toBe(false);
		const before = first.search({ query: "retry queue", limit: 20 });
		const second = await LookbackIndex.open({ sql, storage: fileStorage(path) });
		expect(second.search({ query: "retry queue", limit: 20 })).toEqual(before);
		const report = await second.sync(source());
		expect(report.filesParsed).toBe(0);
		expect(report.changed).toBe(false);
		expect(second.stats().generation).toBe(1);
		first.close();
		second.close();
		expect(existsSync(`${path}-journal`)).toBe(false);
	});

	it("reads only the pages a search needs", async () => {
		const path = join(tempDir(), "index.db");
		(await indexed(path)).close();
		const size = statSync(path).size;
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(path) });
		const before = hostIo.bytesRead;
		expect(index.search({ query: "amqplib" }).results).toHaveLength(1);
		const read = hostIo.bytesRead - before;
		expect(read).toBeGreaterThan(0);
		expect(read).toBeLessThan(size / 2);
		index.close();
	});

	it("a no-change sync writes nothing", async () => {
		const path = join(tempDir(), "index.db");
		const index = await indexed(path);
		const writes = hostIo.writes;
		const mtime = statSync(path).mtimeMs;
		const report = await index.sync(source());
		expect(report.unchanged).toBe(10);
		expect(hostIo.writes).toBe(writes);
		expect(statSync(path).mtimeMs).toBe(mtime);
		index.close();
	});

	it("opens an index the previous release wrote whole, without rebuilding it", async () => {
		const sql = await loadEngine();
		const snapshot = memoryStorage();
		const old = await LookbackIndex.open({ sql, storage: snapshot });
		await old.sync(source());
		await old.save();
		const path = join(tempDir(), "index.db");
		writeFileSync(path, snapshot.bytes!);
		const index = await LookbackIndex.open({ sql, storage: fileStorage(path) });
		const report = await index.sync(source());
		expect(report.warnings).toEqual([]);
		expect(report.filesParsed).toBe(0);
		expect(index.search({ query: "amqplib" }).results).toHaveLength(1);
		index.close();
	});

	it("sets an unusable index aside, keeps it, rebuilds and warns once", async () => {
		const sql = await loadEngine();
		const cases: Record<string, (path: string) => void> = {
			garbage: (p) => writeFileSync(p, "this is not a database at all".repeat(100)),
			truncated: (p) => writeFileSync(p, readFileSync(p).subarray(0, 5000)),
			foreign: (p) => {
				const db = new sql.Database();
				db.run("CREATE TABLE t(x)");
				writeFileSync(p, db.export());
			},
			"other schema version": (p) => {
				const db = new sql.Database(readFileSync(p));
				db.run("PRAGMA user_version = 99");
				writeFileSync(p, db.export());
			},
			"garbage with a journal": (p) => {
				writeFileSync(p, "this is not a database at all".repeat(100));
				writeFileSync(`${p}-journal`, readFileSync(p));
			},
		};
		for (const [name, damage] of Object.entries(cases)) {
			const dir = tempDir();
			const path = join(dir, "index.db");
			(await indexed(path)).close();
			damage(path);
			const reopened = await LookbackIndex.open({ sql, storage: fileStorage(path) });
			const report = await reopened.sync(source());
			expect(report.warnings[0], name).toMatchObject({ kind: "index-rebuilt" });
			expect(
				readdirSync(dir).filter((f) => f.includes(".unusable-") && !f.endsWith("-journal")),
				name,
			).toHaveLength(1);
			expect(report.added, name).toBe(10);
			expect(reopened.search({ query: "amqplib" }).results, name).toHaveLength(1);
			const later = await reopened.sync(source());
			expect(later.warnings, name).toEqual([]);
			reopened.close();
		}
	});

	it("follows a file renamed over it (an older lookback saves that way)", async () => {
		const dir = tempDir();
		const path = join(dir, "index.db");
		const index = await indexed(path);
		expect(index.stats().sessions).toBe(10);
		const other = join(dir, "other.db");
		(await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(other) })).close();
		renameSync(other, path);
		expect(index.stats().sessions).toBe(0);
		expect((await index.sync(source())).added).toBe(10);
		index.close();
	});
});

describe("the engine", () => {
	it("is lookback's own build: SQLite 3.52.0 with FTS5", async () => {
		expect(checkEngine(await loadEngine()).sqliteVersion).toBe("3.52.0");
	});

	it("refuses a build other than the one committed with its checksums", async () => {
		const dir = join(tempDir("engine"), "dist/");
		cpSync(engineDir(), dir, { recursive: true });
		const wasm = readFileSync(join(dir, "sql-wasm.wasm"));
		wasm[wasm.length - 1] ^= 1;
		writeFileSync(join(dir, "sql-wasm.wasm"), wasm);
		await expect(loadEngineFrom(dir)).rejects.toThrow(/is not lookback's engine build/);
		const require = createRequire(import.meta.url);
		copyFileSync(require.resolve("sql.js/dist/sql-wasm.wasm"), join(dir, "sql-wasm.wasm"));
		await expect(loadEngineFrom(dir)).rejects.toThrow(/is not lookback's engine build/);
	});

	it("refuses stock sql.js, naming the build it needs", async () => {
		const require = createRequire(import.meta.url);
		const initStock = require("sql.js") as (o?: object) => Promise<SqlJsStatic>;
		const stock = await initStock();
		expect(() => checkEngine(stock)).toThrow(/lacks fts5 .*lookback's engine build/);
		await expect(LookbackIndex.open({ sql: stock, storage: memoryStorage() })).rejects.toThrow(/stock sql.js has no FTS5/);
	});
});
