/**
 * Which SQLite runs the index: lookback's wasm build (everywhere, the reference) or the host's built-in one
 * (node:sqlite on Node ≥ 22.13, bun:sqlite on Bun: 2–5× faster per query), both under the same lock
 * protocol and giving the same results. `auto` takes the built-in one where it has what the index needs.
 */

import { checkEngine, LookbackError, type SqlJsStatic } from "../core/index.js";
import { loadBuiltinEngine } from "./builtin-engine.js";
import { loadEngine } from "./engine.js";

export type EngineChoice = "auto" | "wasm" | "builtin";

const ENGINE_CHOICES: readonly EngineChoice[] = ["auto", "wasm", "builtin"];

/** The choice from `--engine`, else `LOOKBACK_ENGINE`, else auto. */
export function engineChoice(flag: string | undefined, env: Record<string, string | undefined> = process.env): EngineChoice {
	const value = flag ?? env.LOOKBACK_ENGINE ?? "auto";
	if (!(ENGINE_CHOICES as readonly string[]).includes(value)) {
		throw new LookbackError("bad-argument", `unknown engine "${value}": use ${ENGINE_CHOICES.join(", ")}`);
	}
	return value as EngineChoice;
}

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
