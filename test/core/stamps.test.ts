import { appendFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import type { Database } from "../../src/core/store/engine.js";
import { knownStamps, STAMP_CHANGES_MAX } from "../../src/core/sync/stamps.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { copyFixtures } from "../helpers.js";
import { sessionWith, userMessage } from "../pi-sessions.js";

/** Every row's stamp, read the long way: what the cache must always agree with. */
function everyRow(db: Database): Map<string, unknown> {
	const rows = db.exec("SELECT path, size, mtime, root, agent, gone_at FROM sessions")[0]?.values ?? [];
	return new Map(rows.map(([path, size, mtime, root, agent, goneAt]) => [String(path), { size, mtime, root, agent, goneAt }]));
}

const count = (db: Database, sql: string) => Number(db.exec(sql)[0]?.values[0]?.[0] ?? 0);
const cached = (db: Database) => count(db, "SELECT count(*) FROM stamp_cache");
const changes = (db: Database) => count(db, "SELECT count(*) FROM stamp_changes");

async function indexed() {
	const root = copyFixtures();
	const source = fileSource([{ path: root, layout: "nested" }]);
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	expect((await index.sync(source)).warnings).toEqual([]);
	return { root, source, index, db: index.db };
}

describe("the stamps' cache", () => {
	it("is made by a first index, and agrees with every row after growth, a new file, a removal and a forget", async () => {
		const { root, source, index, db } = await indexed();
		expect(cached(db)).toBe(1);
		expect(changes(db)).toBe(0);
		expect(knownStamps(db)).toEqual(everyRow(db));

		const grown = [...everyRow(db).keys()][0];
		appendFileSync(
			grown,
			`${JSON.stringify({ type: "message", id: "zz1", parentId: null, timestamp: new Date().toISOString(), message: userMessage("grown") })}\n`,
		);
		const added = sessionWith(root, "a new session").getSessionFile() as string;
		const report = await index.sync(source);
		expect(report.grown + report.added).toBe(2);
		// The sync's changes are overlaid, not made into the cache again (two rows, far under the limit).
		expect(changes(db)).toBe(2);
		expect(knownStamps(db)).toEqual(everyRow(db));
		expect(knownStamps(db).has(added)).toBe(true);

		rmSync(added);
		await index.sync(source);
		expect(knownStamps(db).has(added)).toBe(false);
		expect(knownStamps(db)).toEqual(everyRow(db));

		await index.forget([grown]);
		expect(knownStamps(db).has(grown)).toBe(false);
		expect(knownStamps(db)).toEqual(everyRow(db));
		// No archive holds a tombstone here: the next sync indexes it again.
		await index.sync(source);
		expect(knownStamps(db).has(grown)).toBe(true);
		expect(knownStamps(db)).toEqual(everyRow(db));
		// A sync with nothing to do writes nothing, the cache included.
		const before = changes(db);
		expect((await index.sync(source)).changed).toBe(false);
		expect(changes(db)).toBe(before);
	});

	it("sees a write of any other writer (an older lookback's): the triggers are the file's own", async () => {
		const { db } = await indexed();
		const [path] = [...everyRow(db).keys()];
		db.run("UPDATE sessions SET size = size + 1, gone_at = 123 WHERE path = ?", [path]);
		db.run("UPDATE sessions SET path = path || '.moved' WHERE path = ?", [path]);
		expect(knownStamps(db)).toEqual(everyRow(db));
		db.run("DELETE FROM sessions WHERE path = ?", [`${path}.moved`]);
		expect(knownStamps(db)).toEqual(everyRow(db));
	});

	it("is made again once the changes since are past its limit", async () => {
		const { root, source, db, index } = await indexed();
		for (let i = 0; i <= STAMP_CHANGES_MAX; i++) sessionWith(root, `session ${i}`, `/home/dev/p${i % 7}`);
		await index.sync(source);
		expect(changes(db)).toBe(0);
		expect(knownStamps(db)).toEqual(everyRow(db));
	});

	it("is read around on an index made before it, and made by its first sync that writes", async () => {
		const { root, source, db, index } = await indexed();
		db.run(
			"DROP TRIGGER stamps_insert; DROP TRIGGER stamps_update; DROP TRIGGER stamps_delete; DROP TABLE stamp_cache; DROP TABLE stamp_changes",
		);
		expect(knownStamps(db)).toEqual(everyRow(db));
		expect((await index.sync(source)).changed).toBe(false);
		sessionWith(root, "one more");
		await index.sync(source);
		expect(cached(db)).toBe(1);
		expect(changes(db)).toBe(0);
		expect(knownStamps(db)).toEqual(everyRow(db));
	});
});
