/** An index opened read-only (the browser over `lookback serve`): a bad file is an error, never set aside or rebuilt. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memorySource, SCHEMA_VERSION } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { openNodeIndex } from "../../src/node/open.js";
import { FIXTURES, tempDir } from "../helpers.js";

async function openReadOnly(path: string) {
	let setAside = 0;
	const storage = {
		...fileStorage(path),
		readOnly: true,
		async setAside() {
			setAside++;
			return undefined;
		},
	};
	const open = LookbackIndex.open({ sql: await loadEngine(), storage });
	return { open, setAside: () => setAside };
}

describe("a read-only index", () => {
	it("reads a good index and refuses to sync or write", async () => {
		const dir = tempDir();
		const path = join(dir, "index.db");
		const opened = await openNodeIndex({ indexPath: path, sessionsDirs: [FIXTURES], onlySessionsDirs: true, env: {}, engine: "wasm" });
		await opened.index.sync(opened.source);
		opened.index.close();
		const bytes = readFileSync(path);
		const { open } = await openReadOnly(path);
		const index = await open;
		expect(index.stats().sessions).toBe(10);
		await expect(index.sync(memorySource(new Map()))).rejects.toMatchObject({ code: "read-only" });
		expect(() => index.db.run("DELETE FROM sessions")).toThrow(/readonly|read-only|query_only/i);
		index.close();
		expect(readFileSync(path).equals(bytes)).toBe(true);
	});

	for (const [what, content, message] of [
		["a text file", "not a database at all, just text".repeat(200), /cannot read the index .*(unreadable|not a database)/],
		["an empty file", "", /not a lookback index/],
	] as const) {
		it(`reports ${what} as an error and leaves it where it is`, async () => {
			const dir = tempDir();
			const path = join(dir, "index.db");
			writeFileSync(path, content);
			const { open, setAside } = await openReadOnly(path);
			await expect(open).rejects.toMatchObject({ code: "index-unusable", message });
			expect(setAside()).toBe(0);
			expect(readFileSync(path, "utf8")).toBe(content);
			expect(readdirSync(dir).filter((f) => !f.endsWith(".locks"))).toEqual(["index.db"]);
		});
	}

	it("reports an index of a newer schema", async () => {
		const dir = tempDir();
		const path = join(dir, "index.db");
		const sql = await loadEngine();
		const db = new sql.Database();
		db.run(`PRAGMA application_id = ${0x4c6b426b}; PRAGMA user_version = ${SCHEMA_VERSION + 1}; CREATE TABLE meta(key TEXT)`);
		writeFileSync(path, db.export());
		db.close();
		const { open } = await openReadOnly(path);
		await expect(open).rejects.toThrow(new RegExp(`schema version ${SCHEMA_VERSION + 1}`));
	});
});
