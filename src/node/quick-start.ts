/**
 * How a short command runs in the first Node it is given. V8 flags set here hold for what is compiled after
 * them: the command's own code and the engine's wasm.
 *
 * - No optimising compiler for JavaScript (TurboFan, and Maglev where Node has it on). Node's exit can deadlock
 *   while one of them compiles on a background thread (nodejs/node#54918, see src/cli.ts); with neither there is
 *   no such job to wait for. These flags, unlike `--no-concurrent-recompilation`, are read at every decision to
 *   optimise, so setting them at run time is enough (V8's `--trace-opt` shows no compile after them) and the bin
 *   need not start Node again: a short command saves a Node start (40–60 ms) and pays little, since its time is
 *   in the engine; a large first index in-process is slower by about a third (measured, 50 MB), which is why
 *   `lookback index` keeps the optimiser.
 * - The engine's wasm compiled by Liftoff only: a one-shot command spends more time having V8 optimise it in
 *   the background than running it (a search on a small index took 0.44 s with tier-up, 0.17 s without).
 *
 * Must run before the command line loads.
 */

import { setFlagsFromString } from "node:v8";

/** The commands that run long: a first index of a large history, the servers. They keep V8's optimisers. */
const LONG_COMMANDS = new Set(["index", "serve", "mcp"]);

/**
 * Whether a command line is a short command. Options may come before the command and the bin knows none of
 * them, so any word that names a long command makes it long (`lookback search index` too): a short command
 * taken for long only pays the second Node start, a long one is never run without the optimiser.
 */
export function isQuickCommand(argv: readonly string[]): boolean {
	return !argv.some((arg) => LONG_COMMANDS.has(arg));
}

/** V8's flags that stop its optimising compilers starting a job (read at every decision to optimise). */
export const NO_OPTIMISERS = ["--no-turbofan", "--no-maglev"];

export function startQuickCommand(): void {
	for (const flag of [...NO_OPTIMISERS, "--liftoff-only"]) {
		try {
			setFlagsFromString(flag);
		} catch {
			// a host without V8's flags (Bun) keeps its own compiler
		}
	}
}
