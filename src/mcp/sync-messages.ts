/** What the MCP server and its indexer thread say to each other. */

import type { SyncProgress, SyncReport } from "../core/index.js";

export type ToSyncWorker = { type: "sync" } | { type: "stop" };

export type FromSyncWorker =
	| { type: "progress"; progress: SyncProgress }
	| { type: "done"; report: SyncReport }
	| { type: "failed"; error: string };
