/** What a host and its indexer (src/indexer.ts, or the same work in the host's process) say to each other. */

import type { LookbackErrorCode, SyncReport } from "../core/index.js";
import type { IndexingProgress } from "./indexer-slot.js";
import type { NodeIndexOptions } from "./open.js";

export type ToIndexer =
	/** Open the index (the first message): the environment decides the session roots and the engine. */
	| { type: "open"; options: NodeIndexOptions }
	/** Sync, or follow the sync another process runs and then sync. */
	| { type: "sync" }
	/** Stop a running sync at its next file (what it finished is committed). */
	| { type: "stop" }
	/** Make the read-optimised copy `lookback serve` hands out (read-snapshot.ts) from `from` into `to`. */
	| { type: "snapshot"; id: number; from: string; to: string }
	/** Run a call the indexer's entry registered (src/indexer.ts), syncing first when that reads at most `waitBytes`. */
	| { type: "call"; id: number; call: string; args: unknown; waitBytes?: number };

export type FromIndexer =
	| { type: "opened"; indexPath: string }
	| { type: "open-failed"; error: string }
	/** Where the sync stands; `elsewhere` when another process runs it and this one follows. */
	| { type: "progress"; progress: IndexingProgress; elsewhere: boolean }
	/** The sync ended: its report (none when it was stopped before it began). */
	| { type: "synced"; report?: SyncReport }
	| { type: "sync-failed"; error: string }
	/** The answer to a snapshot or a call of that id: its value, or its error (with the code of a LookbackError). */
	| { type: "answer"; id: number; value?: unknown; error?: string; code?: LookbackErrorCode };
