#!/usr/bin/env node
/**
 * The `lookback` binary. Node's exit can deadlock when V8 is optimising a function on a background thread
 * just then (nodejs/node#54918: the main thread drains the platform's tasks while the compile job waits for
 * it to collect garbage; Node 20.20.2 hung in 10 of 40 runs of one search, Node 24.18 is affected too), and
 * `process.exit()` goes the same way. Two cures, one for each kind of command:
 * - A short one (search, read, usage, …) turns V8's optimising compilers off before it loads anything
 *   (src/node/quick-start.ts): no background compile job, no deadlock, and no second Node start.
 * - A long one (index, serve, mcp) keeps the optimiser, on the main thread: V8's `--no-concurrent-recompilation`,
 *   which V8 reads only at start-up (v8.setFlagsFromString sets it, but the compile dispatcher already exists), so
 *   this file starts Node once more with it and hands over stdio, signals and the exit status.
 * It loads nothing else: the command line (cli-main.ts) runs in the process so prepared. Bun has no such deadlock.
 */

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isQuickCommand, startQuickCommand } from "./node/quick-start.js";

const FLAG = "--no-concurrent-recompilation";
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/** Node ≥ 22.15 replaces this process with the new one (POSIX); elsewhere this one stays to hand things on. */
const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;

const quick = isQuickCommand(process.argv.slice(2));
if (quick && !isBun) startQuickCommand();
if (isBun || quick || process.execArgv.includes(FLAG)) await import("./cli-main.js");
else if (execve && process.platform !== "win32") {
	execve(
		process.execPath,
		[process.execPath, FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
		process.env,
	);
} else {
	const child = spawn(process.execPath, [FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
		stdio: "inherit",
	});
	// A signal meant for the command (Ctrl+C is sent to both by the terminal) goes to it; this process waits for its end.
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const) process.on(signal, () => child.kill(signal));
	child.on("exit", (code, signal) => {
		if (signal) {
			process.removeAllListeners(signal);
			process.kill(process.pid, signal);
		} else process.exit(code ?? 1);
	});
	child.on("error", (error) => {
		process.stderr.write(`lookback: could not start node again: ${error.message}\n`);
		process.exit(1);
	});
}
