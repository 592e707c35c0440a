/**
 * The MCP server's indexer thread: its own engine and its own connection to the index file (one more holder
 * in the lock protocol), so that a first index of a large history, or any sync, never holds up the server's
 * answers. Syncs one request at a time; "stop" ends a running sync at its next file.
 */

import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../core/index.js";
import { type NodeIndexOptions, openNodeIndex } from "../node/open.js";
import type { FromSyncWorker, ToSyncWorker } from "./sync-messages.js";

const port = parentPort;
if (!port) throw new Error("lookback: sync-worker runs as a worker thread of `lookback mcp`");
const post = (message: FromSyncWorker) => port.postMessage(message);
const opening = openNodeIndex(workerData as NodeIndexOptions);
let stop: AbortController | undefined;

port.on("message", async (message: ToSyncWorker) => {
	if (message.type === "stop") {
		stop?.abort();
		return;
	}
	stop = new AbortController();
	try {
		const { index, source } = await opening;
		const report = await index.sync(source, { onProgress: (progress) => post({ type: "progress", progress }), signal: stop.signal });
		post({ type: "done", report });
	} catch (error) {
		post({ type: "failed", error: errorMessage(error) });
	}
});
