/**
 * The SQLite engine: a sql.js build with FTS5. The caller supplies the initialised module (Node reads the
 * wasm from disk, a browser fetches it); this file checks that the build can do what the index needs.
 */

import type { Database, SqlJsStatic } from "sql.js";
import { errorMessage, LookbackError } from "../errors.js";
import { speedUpGlue } from "./engine-glue.js";

export type { Database, SqlJsStatic };

/** Name of the engine build lookback is made for (see wasm/README.md). */
export const ENGINE_BUILD = "lookback's engine build (wasm/dist: sql.js 1.13.0 with SQLite 3.52.0, FTS5 and its filesystem exported)";

/** What the engine reports about itself. */
export interface EngineInfo {
	sqliteVersion: string;
	build: string;
}

const checked = new WeakSet<object>();

/** The features the index needs, each with the statement that shows an engine has it. */
const FEATURES = [
	["fts5", "CREATE VIRTUAL TABLE c1 USING fts5(x, tokenize='unicode61 remove_diacritics 2')"],
	["the trigram tokenizer", "CREATE VIRTUAL TABLE c2 USING fts5(x, tokenize='trigram')"],
	["contentless_delete (SQLite 3.43+)", "CREATE VIRTUAL TABLE c3 USING fts5(x, content='', contentless_delete=1)"],
] as const;

/** Whether a version string is at least 3.43.0, the first with contentless_delete. */
function atLeast343(version: string): boolean {
	const [major = 0, minor = 0] = version.split(".").map(Number);
	return major > 3 || (major === 3 && minor >= 43);
}

/**
 * An engine compiled with FTS5 at SQLite 3.43 or later has all three features (trigram since 3.34), which
 * two functions tell without creating the probe's tables: creating them made a one-shot command compile a
 * good part of SQLite it then never ran (about 40 ms without the optimising compiler). An engine that cannot
 * say (FTS5 added as an extension, compile-option diagnostics left out) is probed.
 */
function saysItHasFeatures(db: Database, version: string): boolean {
	try {
		return atLeast343(version) && db.exec("SELECT sqlite_compileoption_used('ENABLE_FTS5')")[0]?.values[0]?.[0] === 1;
	} catch {
		return false;
	}
}

/**
 * Check once per module that FTS5 with the `unicode61` and `trigram` tokenizers and contentless-delete
 * tables exist, and make sql.js's string and blob copies cheap (engine-glue.ts).
 * @throws LookbackError("engine-missing-feature") naming the build otherwise.
 */
export function checkEngine(SQL: SqlJsStatic): EngineInfo {
	const db = new SQL.Database();
	try {
		const version = String(db.exec("SELECT sqlite_version()")[0]?.values[0]?.[0] ?? "unknown");
		if (!checked.has(SQL)) {
			if (!saysItHasFeatures(db, version)) {
				for (const [what, sql] of FEATURES) {
					try {
						db.run(sql);
					} catch (error) {
						throw new LookbackError(
							"engine-missing-feature",
							`the SQLite engine lacks ${what} (SQLite ${version}; ${errorMessage(error)}). lookback needs ${ENGINE_BUILD}; stock sql.js has no FTS5.`,
						);
					}
				}
			}
			speedUpGlue(SQL, db);
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
		// sql.js's getAsObject asks the engine for the column names again on every row (a string copy each): here
		// they are asked once. The built-in engine's statements give objects only.
		if (typeof stmt.getColumnNames !== "function") {
			while (stmt.step()) rows.push(stmt.getAsObject() as T);
			return rows;
		}
		let names: string[] | undefined;
		while (stmt.step()) {
			names ??= stmt.getColumnNames();
			const values = stmt.get();
			const row: Record<string, unknown> = {};
			for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
			rows.push(row as T);
		}
		return rows;
	} finally {
		stmt.free();
	}
}

/** First row of a query, or undefined. */
export function queryOne<T>(db: Database, sql: string, params: (string | number | null)[] = []): T | undefined {
	return queryAll<T>(db, sql, params)[0];
}
