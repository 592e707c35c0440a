/** Bringing the index up to date with session files: incremental sync, one file's sync, the writer of one session's entries. */

export { forgetFiles } from "./forget.js";
export { fingerprint } from "./hash.js";
export { type SyncOptions, syncIndex } from "./indexer.js";
export type { SyncProgress, SyncReport } from "./report.js";
