/**
 * A one-shot command spends more time having V8 optimise the engine's wasm in the background than running
 * it: compiled by Liftoff only, a search on a small index takes 0.17 s instead of 0.44 s. Long work (a first
 * index of a large history, a server) keeps the optimising compiler. Must run before the engine loads.
 */

import { setFlagsFromString } from "node:v8";

export function compileWasmForQuickStart(): void {
	try {
		setFlagsFromString("--liftoff-only");
	} catch {
		// a host without V8's flags (Bun) keeps its own compiler
	}
}
