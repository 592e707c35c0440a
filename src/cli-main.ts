/**
 * The `lookback` command line with the process's streams, run by the bin (cli.ts), which has turned V8's optimisers
 * off for a short command; a long one settles them here before it ends, so that its exit cannot hang.
 */

import { parseArgs } from "./cli/args.js";
import type { CliIO } from "./cli/command-line.js";
import { startedQuick } from "./node/quick-start.js";
import { settleOptimisers } from "./node/settle-optimisers.js";

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
if (!startedQuick(argv)) settleOptimisers();
process.exitCode = code;
// A server's background work (a sync waiting for another process's commit) must not outlive its client.
if (mcp) process.exit(code);
