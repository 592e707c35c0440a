/** Loads lookback's engine build (wasm/dist) in a browser, the wasm fetched by URL or passed as bytes. */

import { checkEngine, type SqlJsStatic } from "../../src/core/index.js";
import initSqlJs from "../../wasm/dist/sql-wasm.cjs";

export interface WebEngineOptions {
	/** URL of sql-wasm.wasm (default: beside the page). */
	wasmUrl?: string;
	/** The wasm bytes, when the page already has them. */
	wasmBinary?: ArrayBuffer | Uint8Array;
	/** The wasm compiled already (or being compiled), e.g. started before the rest of a worker's script ran. */
	wasmModule?: Promise<WebAssembly.Module>;
}

type Receive = (instance: WebAssembly.Instance, module: WebAssembly.Module) => void;

export async function loadWebEngine(options: WebEngineOptions = {}): Promise<SqlJsStatic> {
	const init = initSqlJs as unknown as (o: object) => Promise<SqlJsStatic>;
	const { wasmModule } = options;
	const SQL = await init(
		wasmModule
			? {
					// Emscripten's hook for a wasm instantiated by its host: it waits for `receive` (the {} says so).
					instantiateWasm: (imports: WebAssembly.Imports, receive: Receive) => {
						wasmModule.then(async (module) => receive(await WebAssembly.instantiate(module, imports), module));
						return {};
					},
				}
			: options.wasmBinary
				? { wasmBinary: options.wasmBinary }
				: { locateFile: (file: string) => options.wasmUrl ?? file },
	);
	checkEngine(SQL);
	return SQL;
}
