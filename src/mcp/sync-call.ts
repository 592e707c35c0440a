/**
 * The one place the MCP server runs a sync: on an indexer thread (sync-worker.ts, built beside the CLI as
 * dist/mcp-sync-worker.js), so that the server's own thread only answers requests and reads. Where that file
 * is missing (the sources run without a build) the sync runs on the server's thread, in batches of about half
 * a second (`DEFAULTS.syncBatchMs`) between which requests are answered.
 */

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { SyncProgress, SyncReport } from "../core/index.js";
import type { NodeIndex, NodeIndexOptions } from "../node/open.js";
import type { FromSyncWorker, ToSyncWorker } from "./sync-messages.js";

interface SyncRun {
	onProgress: (p: SyncProgress) => void;
	signal: AbortSignal;
}

export interface SyncRunner {
	/** One sync; a second call waits for none (the caller runs one at a time). */
	run(options: SyncRun): Promise<SyncReport>;
	/** Whether syncs run off the server's thread. */
	readonly threaded: boolean;
	/** End the indexer thread (a sync it was running stops where it is; its finished batches are committed). */
	close(): Promise<void>;
}

const WORKER_FILE = fileURLToPath(new URL("./mcp-sync-worker.js", import.meta.url));

function onThisThread(opened: NodeIndex): SyncRunner {
	return {
		threaded: false,
		run: ({ onProgress, signal }) => opened.index.sync(opened.source, { onProgress, signal }),
		close: async () => undefined,
	};
}

function onWorker(options: NodeIndexOptions): SyncRunner {
	// The environment decides the session roots and the engine: the thread gets a plain copy of it.
	const worker = new Worker(WORKER_FILE, { workerData: { ...options, env: { ...(options.env ?? process.env) } } });
	worker.unref();
	const send = (message: ToSyncWorker) => worker.postMessage(message);
	let exited: Error | undefined;
	let current: { resolve: (r: SyncReport) => void; reject: (e: Error) => void; onProgress: SyncRun["onProgress"] } | undefined;
	worker.on("message", (message: FromSyncWorker) => {
		if (message.type === "progress") current?.onProgress(message.progress);
		else if (message.type === "done") current?.resolve(message.report);
		else current?.reject(new Error(message.error));
	});
	const fail = (error: Error) => {
		exited = error;
		current?.reject(error);
	};
	worker.on("error", fail);
	worker.on("exit", (code) => fail(new Error(`lookback: the indexer thread stopped (exit code ${code})`)));
	return {
		threaded: true,
		run({ onProgress, signal }) {
			if (exited) return Promise.reject(exited);
			const done = new Promise<SyncReport>((resolve, reject) => (current = { resolve, reject, onProgress }));
			const stop = () => send({ type: "stop" });
			signal.addEventListener("abort", stop, { once: true });
			send({ type: "sync" });
			return done.finally(() => {
				current = undefined;
				signal.removeEventListener("abort", stop);
			});
		},
		close: async () => {
			await worker.terminate();
		},
	};
}

/** The sync runner for an opened index: its own thread when the built worker is there. */
export function syncRunner(options: NodeIndexOptions, opened: NodeIndex): SyncRunner {
	return existsSync(WORKER_FILE) ? onWorker(options) : onThisThread(opened);
}
