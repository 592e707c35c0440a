/** Loads the FTS5 sql.js build in Node, with the wasm read from disk. */

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { checkEngine, type SqlJsStatic } from "../core/index.js";

const require = createRequire(import.meta.url);

let loaded: Promise<SqlJsStatic> | undefined;

/** The engine module (loaded once per process) after checking it has FTS5, trigram and contentless delete. */
export function loadEngine(): Promise<SqlJsStatic> {
	loaded ??= (async () => {
		const wasmBinary = await readFile(require.resolve("fts5-sql-bundle/dist/sql-wasm.wasm"));
		const { initSqlJs } = require("fts5-sql-bundle") as { initSqlJs: (options: object) => Promise<SqlJsStatic> };
		const SQL = await initSqlJs({ wasmBinary });
		checkEngine(SQL);
		return SQL;
	})();
	return loaded;
}
