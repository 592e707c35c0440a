/** The replies of the `session_search` tool, one module per mode, and the helpers the faces share to show them. */

export { boundedJson } from "./budget.js";
export { browseReply, type BrowseReply } from "./browse.js";
export { discover, discoveryReply, type DiscoveryOptions, type DiscoveryReply, type ToolHit } from "./discovery.js";
export { flatten, isSessionPath, shortTime } from "./display.js";
export { hitContext, oversizeError, type HitContext, type HostFiles, type ToolMessage } from "./messages.js";
export { readWhole, type ReadReply } from "./read.js";
export { replyKind, type Reply } from "./reply.js";
export { scroll, type ScrollOptions, type ScrollReply } from "./scroll.js";
export { storeAction, type SessionExtras, type StoreAction, type StoreFields, type StoreOptions, type StoreReply, type StoreResult } from "./store.js";
