/**
 * How a long command (index, serve, mcp) ends. It keeps V8's optimising compilers, whose jobs run on background
 * threads, and Node's exit can deadlock while one is in flight (nodejs/node#54918: the main thread drains the
 * platform's tasks while the job waits for it to collect garbage; see src/cli.ts). So before the command
 * returns, no new job starts (`--no-turbofan`, `--no-maglev`: V8 reads them at every decision to optimise) and the
 * ones in flight are waited for and installed (V8's `%WaitForBackgroundOptimization`, which parks the main
 * thread, so that a job can have its garbage collected meanwhile, and `%FinalizeOptimization`). Nothing is left
 * for the exit to wait on. This replaced starting Node a second time with `--no-concurrent-recompilation`, which
 * cost every start of `lookback mcp` about 90 ms.
 */

import { setFlagsFromString } from "node:v8";
import { NO_OPTIMISERS } from "./quick-start.js";

export function settleOptimisers(): void {
	try {
		for (const flag of [...NO_OPTIMISERS, "--allow-natives-syntax"]) setFlagsFromString(flag);
		// Parsed after the flag that allows V8's own functions; esbuild leaves the string alone.
		new Function("%WaitForBackgroundOptimization(); %FinalizeOptimization();")();
	} catch {
		// A host without V8's flags or these functions (Bun, which has no such deadlock): nothing to settle.
	}
}
