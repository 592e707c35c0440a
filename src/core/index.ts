/**
 * lookback's core: no Node, no DOM. The folders are the pipeline's stages, one way:
 * parse (session files → entries) → sync (entries → the index in store) → query (user text → FTS5) →
 * search (ranked hits) → read (sessions whole) → replies (what the tool answers); text holds the word and
 * display helpers they share.
 */

// The library API
export { LookbackIndex, type OpenIndexOptions } from "./lookback.js";
export { DEFAULTS, mebibytes, thousands } from "./defaults.js";
export { errorMessage, LookbackError, type LookbackErrorCode } from "./errors.js";

// Storage: the engine, where the index lives, what it holds
export {
	checkEngine,
	ENGINE_BUILD,
	hasEngineFiles,
	indexBusyError,
	isInPlace,
	memoryStorage,
	mountEngineFiles,
	openAt,
	SCHEMA_VERSION,
	type Database,
	type EmscriptenFS,
	type EngineFiles,
	type EngineFileStat,
	type EngineInfo,
	type EngineIoCounters,
	type FilesEngine,
	type FsNode,
	type IndexOverview,
	type IndexStats,
	type IndexStorage,
	type InPlaceStorage,
	type SnapshotStorage,
	type SqlJsStatic,
} from "./store/index.js";

// Session files and what they hold
export {
	branchStates,
	branchThrough,
	contextStart,
	isTmpSessionFolder,
	memorySource,
	pathToRoot,
	readOmpMetadata,
	ROLES,
	type AgentKind,
	type BranchState,
	type OmpMetadata,
	type Role,
	type SessionFileInfo,
	type SessionKind,
	type SessionSource,
	type SkippedFile,
	type SkipReason,
	type SyncWarning,
	type TreeNode,
	type WalkResult,
} from "./parse/index.js";
export type { SyncOptions, SyncProgress, SyncReport } from "./sync/index.js";

// Queries and results
export { parseQuery, SCOPES, splitInlineFilters, type InlineFilters, type ParsedQuery, type QueryNode, type Scope, type SessionFilter, type SplitQuery } from "./query/index.js";
export { CANDIDATE_FIELDS, type ReadRange, type SearchHit, type SearchRequest, type SearchResponse } from "./search/index.js";
export { projectName, type ActivityDay, type BrowseOptions, type ProjectCount, type ReadOptions, type SessionMessage, type SessionRow, type SessionSummary, type SessionView } from "./read/index.js";
export { fileProblems, type FileProblem, type LinkedSession, type SessionStructure, type SideBranch } from "./read/index.js";
export { flatten, isSessionPath, parseTimeFilter, shortTime } from "./text/index.js";

// The tool's replies, which the faces render
export {
	boundedJson,
	browseReply,
	discover,
	discoveryReply,
	hitContext,
	oversizeError,
	readWhole,
	scroll,
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
