/** lookback's core: parsing, schema, indexing, query and result shaping. No Node, no DOM. */

// The library API
export { LookbackIndex, type OpenIndexOptions } from "./lookback.js";
export { checkEngine, ENGINE_BUILD, type EngineInfo, type SqlJsStatic, type Database } from "./engine.js";
export { errorMessage, LookbackError, type LookbackErrorCode } from "./errors.js";
export { indexBusyError } from "./transactions.js";
export { DEFAULTS, mebibytes, thousands } from "./defaults.js";

// Storage and sources
export { hasEngineFiles, mountEngineFiles, openAt, type FilesEngine, type EmscriptenFS, type EngineFiles, type EngineFileStat, type EngineIoCounters, type FsNode } from "./engine-files.js";
export { isInPlace, memoryStorage, type IndexStorage, type InPlaceStorage, type SnapshotStorage } from "./storage.js";
export {
	isTmpSessionFolder,
	memorySource,
	type AgentKind,
	type SessionKind,
	type SessionFileInfo,
	type SessionSource,
	type SkipReason,
	type SkippedFile,
	type SyncWarning,
	type WalkResult,
} from "./source.js";

// Results
export type { SyncOptions, SyncProgress, SyncReport } from "./indexer.js";
export type { ReadRange, SearchHit, SearchRequest, SearchResponse } from "./search.js";
export type { BrowseOptions, ReadOptions, SessionMessage, SessionView } from "./sessions.js";
export type { SessionSummary, SessionRow } from "./session-rows.js";
export type { IndexOverview, IndexStats } from "./stats.js";
export type { ActivityDay, ProjectCount } from "./activity.js";
export type { Role } from "./entry-text.js";
export { ROLES } from "./entry-text.js";

// Building blocks other faces reuse
export { branchStates, branchThrough, contextStart, pathToRoot, type BranchState, type TreeNode } from "./branch.js";
export {
	boundedJson,
	browseReply,
	discover,
	discoveryReply,
	flatten,
	hitContext,
	isSessionPath,
	oversizeError,
	readWhole,
	replyKind,
	scroll,
	shortTime,
	storeAction,
	type BrowseReply,
	type DiscoveryOptions,
	type DiscoveryReply,
	type HitContext,
	type HostFiles,
	type ReadReply,
	type Reply,
	type ScrollReply,
	type SessionExtras,
	type StoreAction,
	type StoreReply,
	type StoreResult,
	type ToolHit,
	type ToolMessage,
} from "./replies/index.js";
export { SCOPES, type Scope, type SessionFilter } from "./session-filter.js";
export { parseTimeFilter } from "./time.js";
export { parseQuery, type ParsedQuery, type QueryNode } from "./query-parser.js";
export { splitInlineFilters, type InlineFilters, type SplitQuery } from "./inline-filters.js";
export { projectName } from "./project.js";
export { SCHEMA_VERSION } from "./schema.js";
