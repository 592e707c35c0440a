/**
 * The `lookback` command line with the process's streams, run by the bin (cli.ts) once it has made the process
 * one whose exit cannot hang: V8's optimisers off for a short command, a Node started with
 * `--no-concurrent-recompilation` for a long one.
 */

import { run } from "./cli/main.js";

process.title = "lookback";
const command = process.argv[2];
const code = await run(process.argv.slice(2), {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	env: process.env,
	isTTY: Boolean(process.stdout.isTTY && process.stderr.isTTY),
	columns: process.stdout.isTTY ? process.stdout.columns : undefined,
});
process.exitCode = code;
// A server's background work (a sync waiting for another process's commit) must not outlive its client.
if (command === "mcp") process.exit(code);
