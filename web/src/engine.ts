/** Loads lookback's engine build (wasm/dist) in a browser, the wasm fetched by URL or passed as bytes. */

import { checkEngine, type SqlJsStatic } from "../../src/core/index.js";
import initSqlJs from "../../wasm/dist/sql-wasm.cjs";

export interface WebEngineOptions {
	/** URL of sql-wasm.wasm (default: beside the page). */
	wasmUrl?: string;
	/** The wasm bytes, when the page already has them. */
	wasmBinary?: ArrayBuffer | Uint8Array;
}

export async function loadWebEngine(options: WebEngineOptions = {}): Promise<SqlJsStatic> {
	const init = initSqlJs as unknown as (o: object) => Promise<SqlJsStatic>;
	const SQL = await init(
		options.wasmBinary ? { wasmBinary: options.wasmBinary } : { locateFile: (file: string) => options.wasmUrl ?? file },
	);
	checkEngine(SQL);
	return SQL;
}
