/** What a host and its indexer (src/indexer.ts, or the same work in the host's process) say to each other. */

import type { LookbackErrorCode, SyncReport, WalkedFolders } from "../core/index.js";
import type { IndexingProgress } from "./indexer-slot.js";
import type { NodeIndexOptions } from "./open.js";

export type ToIndexer =
	/** Open the index (the first message): the environment decides the session roots and the engine. */
	| { type: "open"; options: NodeIndexOptions }
	/**
	 * Sync, or follow the sync another process runs and then sync; `id` numbers the host's requests. `changed`: all
	 * that changed since the last walk were these files' contents (a host that watches the folders says so), so
	 * the walk can be made again from the last one (walk-again.ts).
	 */
	| { type: "sync"; id?: number; changed?: string[] }
	/** Stop a running sync at its next file (what it finished is committed). */
	| { type: "stop" }
	/** Make the read-optimised copy `lookback serve` hands out (read-snapshot.ts) from `from` into `to`. */
	| { type: "snapshot"; id: number; from: string; to: string }
	/** Run a call the indexer's entry registered (src/indexer.ts), syncing first when that reads at most `waitBytes`. */
	| { type: "call"; id: number; call: string; args: unknown; waitBytes?: number };

/** What a sync's walk looked into, for a host that watches those folders to skip a sync when nothing changed. */
export interface WalkSeen {
	/** The last sync request received before the walk began: the walk saw every change made before it was sent. */
	after: number;
	/** Whether every folder could be listed. */
	complete: boolean;
	/** Made again from the last walk, only the changed files stat'ed anew (walk-again.ts). */
	again: boolean;
	/** The folders (`WalkResult.folders`), left out when they are the ones this indexer said last. */
	folders?: WalkedFolders;
}

/**
 * The messages a host's indexer is started with, in this variable of its environment rather than over the IPC
 * channel: what is sent in the tick the child is spawned is lost when the host exits in that tick (a print-mode Pi
 * that starts the first index at session_shutdown closed the channel before the child read it, 4 runs of 6).
 */
export const FIRST_MESSAGES_ENV = "LOOKBACK_INDEXER_FIRST";

/** The first messages as the environment carries them; undefined when too long for one variable (then IPC carries them). */
export function firstMessagesValue(messages: ToIndexer[]): string | undefined {
	const value = JSON.stringify(messages);
	// Linux takes at most 128 KiB per variable (MAX_ARG_STRLEN); a host's environment is far smaller.
	return value.length < 100_000 ? value : undefined;
}

export type FromIndexer =
	| { type: "opened"; indexPath: string }
	| { type: "open-failed"; error: string }
	/** Where the sync stands; `elsewhere` when another process runs it and this one follows. */
	| { type: "progress"; progress: IndexingProgress; elsewhere: boolean }
	/** The sync ended: its report (none when it was stopped before it began), and what its walk looked into. */
	| { type: "synced"; report?: SyncReport; walk?: WalkSeen }
	| { type: "sync-failed"; error: string }
	/** The answer to a snapshot or a call of that id: its value, or its error (with the code of a LookbackError). */
	| { type: "answer"; id: number; value?: unknown; error?: string; code?: LookbackErrorCode };
