/**
 * `lookback mcp` from its arguments: run by the bin without the rest of the command line (src/cli-main.ts), so that
 * what loads before the client's handshake is answered is the SDK, the tools' schemas and the few modules they
 * need; the core, the engine and the tools' runs load once the client has initialized (server.ts).
 */

import { parseArgs } from "../cli/args.js";
import { type CliIO, checkCommand, indexOptions, VERSION } from "../cli/command-line.js";
import { LookbackError } from "../core/errors.js";
import { redactsByDefault } from "../core/redact/redact.js";
import { serveMcp } from "./server.js";

/** Serve until the client goes; the exit code (0, 1 when the server could not run, 2 for a bad argument). */
export async function runMcp(argv: string[], io: CliIO): Promise<number> {
	try {
		const args = parseArgs(argv);
		checkCommand(args);
		await serveMcp({
			index: indexOptions(args, io),
			version: VERSION,
			cwd: process.cwd(),
			log: (line) => io.stderr(`${line}\n`),
			redact: redactsByDefault(io.env),
			remote: args.options.get("remote")?.[0] ?? (io.env.LOOKBACK_REMOTE?.trim() || undefined),
		});
		return 0;
	} catch (error) {
		io.stderr(`lookback: ${(error as Error).message.replace(/^lookback: /, "")}\n`);
		return error instanceof LookbackError && error.code === "bad-argument" ? 2 : 1;
	}
}
