/** Which SQLite a person asked for (`--engine`, `LOOKBACK_ENGINE`): the name alone, checked, for a command line to read before anything loads. */

import { LookbackError } from "../core/errors.js";

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
