/** Every reply of the `session_search` tool as one union: the faces render it by its `mode` (an omp-store reply by its `action`), without casts. */

import type { BrowseReply } from "./browse.js";
import type { DiscoveryReply } from "./discovery.js";
import type { InSessionReply } from "./in-session.js";
import type { ReadReply } from "./read.js";
import type { ScrollReply } from "./scroll.js";
import type { StoreReply } from "./store.js";

export type Reply = DiscoveryReply | ScrollReply | ReadReply | BrowseReply | StoreReply | InSessionReply;
