/**
 * What the index holds of every file, for a sync to tell what changed: read from the stamps' cache (one JSON text)
 * and the rows changed since it was made (store/schema.ts, `STAMP_TABLES`), else from every row. Every row, as
 * one JSON text made in SQL, took 39 ms of a one-shot `lookback usage` at 5,294 files (wasm without its optimising
 * tier): the text is read in a few milliseconds.
 */

import type { Database } from "../store/engine.js";
import { STAMP_TABLES } from "../store/schema.js";
import type { Stamp } from "./gone.js";

/** Changed paths a sync overlays on the cache before it makes the cache again (about 5 ms of rows at most). */
export const STAMP_CHANGES_MAX = 500;

/** A row's stamp as JSON, `s` the sessions row (all NULL: the path has none any more). */
const STAMP_JSON = (path: string) => `json_array(${path}, s.size, s.mtime, s.root, s.agent, s.gone_at)`;
const EVERY_ROW = `json_group_array(${STAMP_JSON("s.path")}) FROM sessions s`;

type StampRow = [path: string, size: number | null, mtime: number, root: string, agent: string, goneAt: number | null];

function rowsOf(json: unknown): StampRow[] {
	return JSON.parse(typeof json === "string" ? json : "[]") as StampRow[];
}

function put(stamps: Map<string, Stamp>, [path, size, mtime, root, agent, goneAt]: StampRow): void {
	if (size === null) stamps.delete(path);
	else stamps.set(path, { size, mtime, root, agent, goneAt });
}

/** Every indexed file's stamp (in a read or write transaction). */
export function knownStamps(db: Database): Map<string, Stamp> {
	let cached: unknown[] | undefined;
	try {
		cached = db.exec("SELECT stamps, (SELECT count(*) FROM stamp_changes) FROM stamp_cache")[0]?.values[0];
	} catch {
		cached = undefined; // an index made before the cache: its tables come with the first remake
	}
	const stamps = new Map<string, Stamp>();
	if (!cached) {
		for (const row of rowsOf(db.exec(`SELECT ${EVERY_ROW}`)[0]?.values[0]?.[0])) put(stamps, row);
		return stamps;
	}
	for (const row of rowsOf(cached[0])) put(stamps, row);
	if (Number(cached[1]) > 0) {
		const changed = db.exec(
			`SELECT json_group_array(${STAMP_JSON("c.path")}) FROM stamp_changes c LEFT JOIN sessions s ON s.path = c.path`,
		)[0]?.values[0]?.[0];
		for (const row of rowsOf(changed)) put(stamps, row);
	}
	return stamps;
}

/** Whether there is no cache, or the changes since it was made are past `STAMP_CHANGES_MAX`: a sync that wrote makes it again. */
export function stampsStale(db: Database): boolean {
	try {
		const stale = db.exec(`SELECT NOT EXISTS (SELECT 1 FROM stamp_cache) OR (SELECT count(*) FROM stamp_changes) > ${STAMP_CHANGES_MAX}`)[0]
			?.values[0]?.[0];
		return stale === 1;
	} catch {
		return true; // no tables yet
	}
}

/** Make the cache again from every row (in a write transaction): the changes are then in it. */
export function remakeStamps(db: Database): void {
	db.run(STAMP_TABLES);
	db.run(`INSERT OR REPLACE INTO stamp_cache(id, stamps) SELECT 1, ${EVERY_ROW}`);
	db.run("DELETE FROM stamp_changes");
}
