/**
 * Which SQLite runs the index: lookback's wasm build (everywhere, the reference) or the host's built-in one
 * (node:sqlite on Node ≥ 22.13, bun:sqlite on Bun: 2–5× faster per query), both under the same lock
 * protocol and giving the same results. `auto` takes the built-in one where it has what the index needs.
 */

import { checkEngine, LookbackError, type SqlJsStatic } from "../core/index.js";
import { loadBuiltinEngine } from "./builtin-engine.js";
import { loadEngine } from "./engine.js";
import type { EngineChoice } from "./engine-name.js";

export { type EngineChoice, engineChoice } from "./engine-name.js";

export async function chooseEngine(choice: EngineChoice = "auto"): Promise<SqlJsStatic> {
	if (choice === "wasm") return loadEngine();
	const builtin = await loadBuiltinEngine();
	if (builtin) {
		try {
			checkEngine(builtin as unknown as SqlJsStatic);
			return builtin as unknown as SqlJsStatic;
		} catch (error) {
			if (choice === "builtin") throw error;
		}
	} else if (choice === "builtin") {
		throw new LookbackError(
			"engine-missing-feature",
			"this host has no built-in SQLite (node:sqlite needs Node 22.13 or later; bun:sqlite comes with Bun); use --engine wasm",
		);
	}
	return loadEngine();
}
