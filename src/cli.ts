#!/usr/bin/env node
/**
 * The `lookback` binary. Node's exit can deadlock when V8 is optimising a function on a background thread
 * just then (nodejs/node#54918: the main thread drains the platform's tasks while the compile job waits for
 * it to collect garbage; Node 20.20.2 hung in 10 of 40 runs of one search, Node 24.18 is affected too), and
 * `process.exit()` goes the same way. Two cures, one for each kind of command, and neither starts Node again:
 * - A short one (search, read, usage, …) turns V8's optimising compilers off before it loads anything
 *   (src/node/quick-start.ts): no background compile job, no deadlock.
 * - A long one (index, serve, mcp) keeps the optimisers while it works and settles them before it ends
 *   (src/node/settle-optimisers.ts, called by cli-main.ts): no new job, those in flight waited for.
 * It loads nothing else: the command line (cli-main.ts) runs in the process so prepared. Bun has no such deadlock.
 * The status line's cache hit is answered before either (src/node/statusline-quick.ts).
 */

import { firstIndex, isQuickCommand, markQuick, startQuickCommand } from "./node/quick-start.js";

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
// The status line answered from its cache loads nothing more (src/node/statusline.ts).
const answered =
	process.argv[2] === "statusline" && (await import("./node/statusline-quick.js")).quickStatusline(process.argv.slice(2), process.env);
if (!answered) {
	// A short command that will make the index from nothing runs as a long one (src/node/quick-start.ts).
	const quick = isQuickCommand(process.argv.slice(2)) && !firstIndex(process.argv.slice(2), process.env);
	markQuick(quick);
	if (!isBun && quick) startQuickCommand();
	await import("./cli-main.js");
}
