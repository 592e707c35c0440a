#!/usr/bin/env node
/** The `lookback` binary: runs the command line with the process's streams. */

import { run } from "./cli/main.js";

process.title = "lookback";
const code = await run(process.argv.slice(2), {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	env: process.env,
	isTTY: Boolean(process.stdout.isTTY && process.stderr.isTTY),
});
process.exitCode = code;
