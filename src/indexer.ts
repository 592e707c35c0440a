/**
 * The indexer process: started by a long-lived host (the Pi and omp extension, `lookback serve`, `lookback
 * mcp`) through src/node/indexer.ts, it parses, indexes and commits so that the host's event loop never does,
 * and answers the Pi tool's calls (src/extension/tool-calls.ts), which read here for the same reason. Built as
 * dist/indexer.js for Node (started with --no-concurrent-recompilation, so that its exit cannot hang in V8's
 * shutdown deadlock, nodejs/node#54918); Bun runs this file as it is. When its host goes away it finishes the
 * sync at hand — a first index survives a short print-mode run — and exits.
 */

import { setPriority } from "node:os";
import { TOOL_CALLS } from "./extension/tool-calls.js";
import { FIRST_MESSAGES_ENV, type FromIndexer, type ToIndexer } from "./node/indexer-messages.js";
import { IndexerWork } from "./node/indexer-work.js";

const send = process.send?.bind(process);
const first = process.env[FIRST_MESSAGES_ENV];
delete process.env[FIRST_MESSAGES_ENV];
if (!send && first === undefined) {
	process.stderr.write("lookback: src/indexer.ts runs as the indexer process of a lookback host (src/node/indexer.ts)\n");
	process.exit(2);
}
process.title = "lookback-indexer";
try {
	// Behind the host and the person's other work on a busy machine: the index can wait a moment, a keystroke cannot.
	setPriority(10);
} catch {
	// not allowed here: the default priority
}

const work = new IndexerWork((message: FromIndexer) => {
	// A host that has just gone (its exit not yet seen as "disconnect") makes the write fail: nobody is left to tell.
	if (process.connected) send?.(message, undefined, undefined, () => undefined);
}, TOOL_CALLS);
const hostGone = () => {
	work.hostGone();
	void work.idle().then(() => process.exit(0));
};
// What the host asked at the start comes first; it holds for a host that has exited since.
for (const message of first ? (JSON.parse(first) as ToIndexer[]) : []) work.handle(message);
process.on("message", (message: ToIndexer) => work.handle(message));
process.on("disconnect", hostGone);
if (!process.connected) hostGone();
