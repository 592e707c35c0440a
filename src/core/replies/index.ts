/** The replies of the `session_search` tool: one module per mode, the JSON budget, and the union the faces render. */

export { boundedJson } from "./budget.js";
export { browseReply, type BrowseReply } from "./browse.js";
export { discover, discoveryReply, type DiscoveryOptions, type DiscoveryReply, type ToolHit } from "./discovery.js";
export { hitContext, oversizeError, type HitContext, type HostFiles, type ToolMessage } from "./messages.js";
export { readWhole, type ReadReply } from "./read.js";
export type { Reply } from "./reply.js";
export { scroll, type ScrollOptions, type ScrollReply } from "./scroll.js";
export { storeAction, type SessionExtras, type StoreAction, type StoreFields, type StoreOptions, type StoreReply, type StoreResult } from "./store.js";
