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

import { statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { indexPathOf } from "./index-path.js";

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

/** The value of `--name V` or `--name=V` in a command line the bin has not parsed. */
function rawOption(argv: readonly string[], name: string): string | undefined {
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === `--${name}`) return argv[i + 1];
		if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
	}
	return undefined;
}

/**
 * Whether a command will make the index from nothing: its file is missing or empty. Any command syncs first, so a
 * first `lookback usage` (or search) is a first index, and runs as long as `lookback index`: with the optimisers
 * (measured: a cold `usage` took 1.53x a cold `index` of the same HOME with them off).
 */
export function firstIndex(argv: readonly string[], env: Record<string, string | undefined>): boolean {
	if (argv.includes("--no-sync")) return false;
	try {
		return statSync(indexPathOf({ indexPath: rawOption(argv, "index"), agentDir: rawOption(argv, "agent-dir"), env })).size === 0;
	} catch {
		return true;
	}
}

/** Where the bin notes whether it started a short command, for the command line to settle the optimisers otherwise. */
const QUICK = Symbol.for("lookback.quick");

export function markQuick(quick: boolean): void {
	(globalThis as Record<symbol, unknown>)[QUICK] = quick;
}

/** Whether this process runs as a short command: as the bin decided, else by the command alone. */
export function startedQuick(argv: readonly string[]): boolean {
	const marked = (globalThis as Record<symbol, unknown>)[QUICK];
	return typeof marked === "boolean" ? marked : isQuickCommand(argv);
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
