/**
 * The one place the MCP server runs a sync. It runs on the server's own thread for now, in batches of about
 * half a second (`DEFAULTS.syncBatchMs`), so a request that arrives during a batch waits for that batch. A
 * worker-thread indexer can take this function's place without anything else in the server changing.
 */

import type { SyncProgress, SyncReport } from "../core/index.js";
import type { NodeIndex } from "../node/open.js";

export function runSync(opened: NodeIndex, options: { onProgress: (p: SyncProgress) => void; signal: AbortSignal }): Promise<SyncReport> {
	return opened.index.sync(opened.source, options);
}
