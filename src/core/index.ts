/**
 * lookback's core: no Node, no DOM. The folders are the pipeline's stages, one way:
 * parse (session files → entries) → sync (entries → the index in store) → query (user text → FTS5) →
 * search (ranked hits) → read (sessions whole) → replies (what the tool answers); text holds the word and
 * display helpers they share.
 */

export { DEFAULTS, mebibytes, thousands } from "./defaults.js";
export { errorMessage, LookbackError, type LookbackErrorCode } from "./errors.js";
// The library API
export { LookbackIndex, type OpenIndexOptions } from "./lookback.js";
// Session files and what they hold
export {
	AGENT_KINDS,
	type AgentKind,
	type ArchivedFile,
	type ArchiveState,
	BRANCH_STATES,
	type BranchState,
	branchStates,
	branchThrough,
	contextStart,
	type Forgotten,
	isAgentKind,
	isTmpSessionFolder,
	type KeepResult,
	type KeptFacts,
	memorySource,
	type OmpMetadata,
	pathToRoot,
	ROLES,
	type Role,
	readOmpMetadata,
	type SessionArchive,
	type SessionFileInfo,
	type SessionKind,
	type SessionSource,
	type SkippedFile,
	type SkipReason,
	type SyncWarning,
	type TreeNode,
	type WalkResult,
} from "./parse/index.js";
// Queries and results
export {
	GONE_FILTERS,
	type GoneFilter,
	type InlineFilters,
	type ParsedQuery,
	parseQuery,
	type QueryNode,
	SCOPES,
	type Scope,
	type SessionFilter,
	type SplitQuery,
	splitInlineFilters,
} from "./query/index.js";
export {
	type ActivityDay,
	type BrowseOptions,
	type FileProblem,
	fileProblems,
	type LinkedSession,
	type ProjectCount,
	projectName,
	type ReadOptions,
	type SessionMessage,
	type SessionRow,
	type SessionStructure,
	type SessionSummary,
	type SessionView,
	type SideBranch,
} from "./read/index.js";
// The tool's replies, which the faces render
export {
	type BoundedReply,
	type BrowseReply,
	boundedJson,
	browseReply,
	type DiscoveryOptions,
	type DiscoveryReply,
	discover,
	discoveryReply,
	type HitContext,
	type HostFiles,
	hitContext,
	type InSessionReply,
	inSessionReply,
	oversizeError,
	type PageOptions,
	type PageReply,
	type ReadReply,
	type Reply,
	readPage,
	readWhole,
	type ScrollReply,
	type SessionExtras,
	type StoreAction,
	type StoreReply,
	type StoreResult,
	type SyncState,
	scroll,
	storeAction,
	syncState,
	type ToolHit,
	type ToolMessage,
} from "./replies/index.js";
export {
	CANDIDATE_FIELDS,
	type InSessionMatch,
	type InSessionRequest,
	type InSessionResponse,
	type ReadRange,
	type SearchHit,
	type SearchRequest,
	type SearchResponse,
} from "./search/index.js";
// Storage: the engine, where the index lives, what it holds
export {
	checkEngine,
	type Database,
	type EmscriptenFS,
	ENGINE_BUILD,
	type EngineFileStat,
	type EngineFiles,
	type EngineInfo,
	type EngineIoCounters,
	type FilesEngine,
	type FsNode,
	hasEngineFiles,
	type IndexOverview,
	type IndexStats,
	type IndexStorage,
	type InPlaceStorage,
	indexBusyError,
	isInPlace,
	memoryStorage,
	mountEngineFiles,
	openAt,
	SCHEMA_VERSION,
	type SnapshotStorage,
	type SqlJsStatic,
} from "./store/index.js";
export { fingerprint, type SyncOptions, type SyncProgress, type SyncReport } from "./sync/index.js";
export { flatten, isSessionPath, parseTimeFilter, shortTime } from "./text/index.js";
