import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkEngine, LookbackIndex, memoryStorage, type SqlJsStatic } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { cleanStaleTemps, fileStorage } from "../../src/node/file-storage.js";
import { FIXTURES, tempDir } from "../helpers.js";

const source = () => fileSource([{ path: FIXTURES, layout: "nested" }]);

describe("the index file", () => {
	it("saves only when something changed, and reopens with the same results", async () => {
		const sql = await loadEngine();
		const path = join(tempDir(), "lookback", "index.db");
		const first = await LookbackIndex.open({ sql, storage: fileStorage(path) });
		await first.sync(source());
		expect(await first.save()).toBe(true);
		expect(await first.save()).toBe(false);
		const before = first.search({ query: "retry queue", limit: 20 });
		await first.sync(source());
		expect(await first.save()).toBe(false);
		first.close();
		const second = await LookbackIndex.open({ sql, storage: fileStorage(path) });
		const report = await second.sync(source());
		expect(report.filesParsed).toBe(0);
		expect(second.search({ query: "retry queue", limit: 20 })).toEqual(before);
		expect(second.stats().generation).toBe(1);
		second.close();
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
		};
		for (const [name, damage] of Object.entries(cases)) {
			const dir = tempDir();
			const path = join(dir, "index.db");
			const good = await LookbackIndex.open({ sql, storage: fileStorage(path) });
			await good.sync(source());
			await good.save();
			good.close();
			damage(path);
			const reopened = await LookbackIndex.open({ sql, storage: fileStorage(path) });
			const report = await reopened.sync(source());
			expect(report.warnings[0], name).toMatchObject({ kind: "index-rebuilt" });
			expect(readdirSync(dir).filter((f) => f.includes(".unusable-")), name).toHaveLength(1);
			expect(report.added, name).toBe(10);
			expect(reopened.search({ query: "amqplib" }).results, name).toHaveLength(1);
			const later = await reopened.sync(source());
			expect(later.warnings, name).toEqual([]);
			await reopened.save();
			reopened.close();
		}
	});

	it("writes atomically and cleans up temp files a dead writer left", async () => {
		const dir = tempDir();
		const path = join(dir, "index.db");
		const storage = fileStorage(path);
		await storage.save(new Uint8Array([1, 2, 3]));
		expect([...readFileSync(path)]).toEqual([1, 2, 3]);
		writeFileSync(`${path}.999999999.abc123.tmp`, "stale");
		writeFileSync(`${path}.${process.pid}.abc123.tmp`, "mine, in progress");
		writeFileSync(join(dir, "other.db.999999999.abc123.tmp"), "not ours");
		expect(cleanStaleTemps(path)).toBe(1);
		expect(existsSync(`${path}.999999999.abc123.tmp`)).toBe(false);
		expect(existsSync(`${path}.${process.pid}.abc123.tmp`)).toBe(true);
		expect(existsSync(join(dir, "other.db.999999999.abc123.tmp"))).toBe(true);
		expect(await fileStorage(join(dir, "none.db")).load()).toBeNull();
	});
});

describe("checkEngine", () => {
	it("accepts the FTS5 build", async () => {
		expect(checkEngine(await loadEngine()).sqliteVersion).toBe("3.49.1");
	});

	it("refuses stock sql.js, naming the build it needs", async () => {
		const require = createRequire(import.meta.url);
		const initStock = require("sql.js") as (o?: object) => Promise<SqlJsStatic>;
		const stock = await initStock();
		expect(() => checkEngine(stock)).toThrow(/lacks fts5 .*fts5-sql-bundle@1\.0\.2/);
		await expect(LookbackIndex.open({ sql: stock, storage: memoryStorage() })).rejects.toThrow(/stock sql.js has no FTS5/);
	});
});
