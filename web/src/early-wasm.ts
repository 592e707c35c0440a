/**
 * The engine's wasm for the worker, from the worker's first line (worker.ts imports this first): the page's, when the
 * page compiled it while this script loaded (it named the worker so, and posts it first), else fetched and compiled
 * here, on the browser's own threads while the rest of this script is evaluated.
 */

import { compiledWasm, ENGINE_FROM_PAGE, type EngineWasmMessage } from "./engine-wasm.js";

const url = new URL("sql-wasm.wasm", self.location.href).href;
export const engineWasm: Promise<WebAssembly.Module> =
	self.name === ENGINE_FROM_PAGE
		? new Promise((resolve) => {
				const take = (event: MessageEvent<EngineWasmMessage>) => {
					if (!(event.data && typeof event.data === "object" && "engineWasm" in event.data)) return;
					self.removeEventListener("message", take);
					resolve(event.data.engineWasm ?? compiledWasm(url));
				};
				self.addEventListener("message", take);
			})
		: compiledWasm(url);
// Awaited (and a failure reported) where the engine loads.
engineWasm.catch(() => undefined);
