/**
 * The SQLite engine: a sql.js build with FTS5. The caller supplies the initialised module (Node reads the
 * wasm from disk, a browser fetches it); this file checks that the build can do what the index needs.
 */

import type { Database, SqlJsStatic } from "sql.js";
import { errorMessage, LookbackError } from "../errors.js";

export type { Database, SqlJsStatic };

/** Name of the engine build lookback is made for (see wasm/README.md). */
export const ENGINE_BUILD = "lookback's engine build (wasm/dist: sql.js 1.13.0 with SQLite 3.52.0, FTS5 and its filesystem exported)";

/** What the engine reports about itself. */
export interface EngineInfo {
	sqliteVersion: string;
	build: string;
}

const checked = new WeakSet<object>();

/**
 * Check once per module that FTS5 with the `unicode61` and `trigram` tokenizers and contentless-delete
 * tables exist. @throws LookbackError("engine-missing-feature") naming the build otherwise.
 */
export function checkEngine(SQL: SqlJsStatic): EngineInfo {
	const db = new SQL.Database();
	try {
		const version = String(db.exec("SELECT sqlite_version()")[0]?.values[0]?.[0] ?? "unknown");
		if (!checked.has(SQL)) {
			for (const [what, sql] of [
				["fts5", "CREATE VIRTUAL TABLE c1 USING fts5(x, tokenize='unicode61 remove_diacritics 2')"],
				["the trigram tokenizer", "CREATE VIRTUAL TABLE c2 USING fts5(x, tokenize='trigram')"],
				["contentless_delete (SQLite 3.43+)", "CREATE VIRTUAL TABLE c3 USING fts5(x, content='', contentless_delete=1)"],
			] as const) {
				try {
					db.run(sql);
				} catch (error) {
					throw new LookbackError(
						"engine-missing-feature",
						`the SQLite engine lacks ${what} (SQLite ${version}; ${errorMessage(error)}). lookback needs ${ENGINE_BUILD}; stock sql.js has no FTS5.`,
					);
				}
			}
			checked.add(SQL);
		}
		const name = (SQL as { name?: unknown }).name;
		return { sqliteVersion: version, build: typeof name === "string" ? name : ENGINE_BUILD };
	} finally {
		db.close();
	}
}

/** Rows of a query as plain objects. */
export function queryAll<T>(db: Database, sql: string, params: (string | number | null)[] = []): T[] {
	const stmt = db.prepare(sql);
	try {
		stmt.bind(params);
		const rows: T[] = [];
		while (stmt.step()) rows.push(stmt.getAsObject() as T);
		return rows;
	} finally {
		stmt.free();
	}
}

/** First row of a query, or undefined. */
export function queryOne<T>(db: Database, sql: string, params: (string | number | null)[] = []): T | undefined {
	return queryAll<T>(db, sql, params)[0];
}
