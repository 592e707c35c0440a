/**
 * The engine's wasm, compiled from its URL, for the worker: by the page while the worker's own script still loads
 * (page-db.ts, which posts it to the worker first), or by the worker (early-wasm.ts). Nothing else is imported here:
 * both import it before the rest of their scripts.
 */

/** The name of a worker whose page posts it the engine's wasm, compiled, as its first message. */
export const ENGINE_FROM_PAGE = "lookback-engine-from-page";

/** The first message such a page posts: the compiled wasm, or null when it could not compile it. */
export interface EngineWasmMessage {
	engineWasm: WebAssembly.Module | null;
}

/** The wasm at `url`, compiled while it downloads (on the browser's own threads). */
export async function compiledWasm(url: string): Promise<WebAssembly.Module> {
	const response = fetch(url);
	try {
		return await WebAssembly.compileStreaming(response);
	} catch {
		// A host that serves the wasm under another type: compiled from its bytes.
		return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
	}
}
