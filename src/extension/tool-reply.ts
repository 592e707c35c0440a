/** What the `session_search` tool answers: a core reply with the state of the background index. */

import type { Reply, SyncState } from "../core/index.js";

/** A reply, where indexing stands, and whether omp's titles and summaries may lag behind its database. */
export type ToolReply = Reply & SyncState & { summaryMayBeStale?: true };
