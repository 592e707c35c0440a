import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { checkEngine, type SqlJsStatic } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";

/** What a string column reads back as, bound through a parameter. */
function roundTrip(sql: SqlJsStatic, value: string): unknown {
	const db = new sql.Database();
	try {
		db.run("CREATE TABLE t(v TEXT)");
		db.run("INSERT INTO t VALUES (?)", [value]);
		return db.exec("SELECT v, length(CAST(v AS BLOB)) FROM t")[0]?.values[0];
	} finally {
		db.close();
	}
}

const SAMPLES = [
	"",
	"ascii only",
	"Grüße, naïve café",
	"数据库迁移的重试队列", // three bytes of UTF-8 for every UTF-16 unit: the most the bind's room allows
	"emoji 🧪🔁",
	"x".repeat(3_000_000), // larger than the heap's first pages: the bind allocates and may grow the heap
];

describe("the engine's string and blob copies (core/store/engine-glue.ts)", () => {
	it("replace sql.js's byte loops in our build", async () => {
		const sql = await loadEngine();
		const db = new sql.Database();
		const proto = Object.getPrototypeOf(db.prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
		db.close();
		// sql.js's own getString scans for the NUL in JS; ours asks SQLite for the length.
		expect(String(proto.getString)).toContain("_sqlite3_column_bytes");
		expect(String(proto.bindString)).toContain("encodeInto");
		expect(String(proto.getBlob)).toContain("slice");
	});

	it("read and bind every string as sql.js's own did, byte for byte", async () => {
		const ours = await loadEngine();
		const stock = await (createRequire(import.meta.url)("sql.js") as () => Promise<SqlJsStatic>)();
		for (const value of SAMPLES) {
			const expected = new TextDecoder().decode(new TextEncoder().encode(value));
			const [text, bytes] = roundTrip(ours, value) as [string, number];
			expect(text).toBe(expected);
			expect(bytes).toBe(new TextEncoder().encode(value).length);
			// Stock sql.js, whose glue is left alone by checkEngine's refusal, reads the same.
			expect(roundTrip(stock, value)).toEqual([text, bytes]);
		}
	});

	it("write a lone surrogate as U+FFFD, as TextEncoder does (sql.js's own copy made a code point of it and the next unit)", async () => {
		const sql = await loadEngine();
		expect(roundTrip(sql, "split: \ud83e")).toEqual(["split: \ufffd", 10]);
	});

	it("read a text with a NUL inside whole, where sql.js's scan stopped at it", async () => {
		const sql = await loadEngine();
		expect(roundTrip(sql, "before\u0000after")).toEqual(["before\u0000after", 12]);
	});

	it("copy blobs out of the heap, empty ones too", async () => {
		const sql = await loadEngine();
		const db = new sql.Database();
		try {
			const blob = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
			db.run("CREATE TABLE b(v BLOB)");
			db.run("INSERT INTO b VALUES (?), (?)", [blob, new Uint8Array(0)]);
			const [[first], [empty]] = db.exec("SELECT v FROM b ORDER BY rowid")[0].values as [Uint8Array][];
			expect(first).toEqual(blob);
			// A copy, not a view of the heap that a later statement overwrites.
			expect(first.buffer).not.toBe((sql as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer);
			expect(empty).toEqual(new Uint8Array(0));
		} finally {
			db.close();
		}
	});

	it("leave an engine without sql.js's glue as it is", () => {
		const statement = { getString: () => "theirs" };
		const foreign = {
			Database: class {
				exec = () => [{ columns: ["v"], values: [["3.52.0"]] }];
				run() {}
				prepare = () => statement;
				close() {}
			},
		} as unknown as SqlJsStatic;
		checkEngine(foreign);
		expect(statement.getString()).toBe("theirs");
	});
});
