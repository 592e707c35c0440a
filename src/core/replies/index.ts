/** The replies of the `session_search` tool: one module per mode, the JSON budget, and the union the faces render. */

export { type BrowseReply, browseReply } from "./browse.js";
export { type BoundedReply, boundedJson } from "./budget.js";
export { type DiscoveryOptions, type DiscoveryReply, discover, discoveryReply, type ToolHit } from "./discovery.js";
export { type InSessionReply, inSessionReply } from "./in-session.js";
export { type HitContext, type HostFiles, hitContext, oversizeError, type ToolMessage } from "./messages.js";
export { type PageOptions, type PageReply, readPage } from "./page.js";
export { type ReadReply, readWhole } from "./read.js";
export type { Reply } from "./reply.js";
export { type ScrollReply, scroll } from "./scroll.js";
export {
	type SessionExtras,
	type StoreAction,
	type StoreReply,
	type StoreResult,
	storeAction,
} from "./store.js";
export { type SyncState, syncState } from "./sync-state.js";
