#!/usr/bin/env node
/** The `lookback` binary: runs the command line with the process's streams. */

import { run } from "./cli/main.js";
import { compileWasmForQuickStart } from "./node/quick-start.js";

process.title = "lookback";
const command = process.argv[2];
if (command === "search" || command === "read" || command === "browse" || command === "stats" || command === "usage")
	compileWasmForQuickStart();
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
