/** Bringing the index up to date with session files: incremental sync and the writer of one session's entries. */

export { syncIndex, type SyncOptions, type SyncProgress, type SyncReport } from "./indexer.js";
