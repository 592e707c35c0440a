/**
 * The `lookback` command line with the process's streams, run by the bin (cli.ts) once it has made the process
 * one whose exit cannot hang: V8's optimisers off for a short command, a Node started with
 * `--no-concurrent-recompilation` for a long one.
 */

import { parseArgs } from "./cli/args.js";
import type { CliIO } from "./cli/command-line.js";

process.title = "lookback";
const argv = process.argv.slice(2);
const io: CliIO = {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	env: process.env,
	isTTY: Boolean(process.stdout.isTTY && process.stderr.isTTY),
	columns: process.stdout.isTTY ? process.stdout.columns : undefined,
};
/** `lookback mcp` (not its --help): its own module, so that the rest of the command line and the core load after the handshake. */
function isMcp(): boolean {
	try {
		const args = parseArgs(argv);
		return args.command === "mcp" && !args.flags.has("help") && !args.flags.has("version");
	} catch {
		return false; // the command line says what is wrong
	}
}
const mcp = isMcp();
const code = mcp ? await (await import("./mcp/main.js")).runMcp(argv, io) : await (await import("./cli/main.js")).run(argv, io);
process.exitCode = code;
// A server's background work (a sync waiting for another process's commit) must not outlive its client.
if (mcp) process.exit(code);
