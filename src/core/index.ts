/**
 * lookback's core: no Node, no DOM. The folders are the pipeline's stages, one way:
 * parse (session files → entries) → sync (entries → the index in store) → query (user text → FTS5) →
 * search (ranked hits) → read (sessions whole) → replies (what the tool answers); text holds the word and
 * display helpers they share.
 */

export { DEFAULTS, mebibytes, thousands } from "./defaults.js";
export { errorMessage, LookbackError, type LookbackErrorCode } from "./errors.js";
// Export and redaction: how a session leaves lookback
export {
	assistantParts,
	EXPORT_FORMATS,
	type ExportBranch,
	type ExportBranchChoice,
	type ExportDocument,
	type ExportFile,
	type ExportFormat,
	type ExportMessage,
	type ExportOptions,
	exportSession,
	firstArgument,
	isExportFormat,
	safeMarkdown,
	type ToolCall,
} from "./export/index.js";
// The library API
export { LookbackIndex, type OpenIndexOptions } from "./lookback.js";
// Session files and what they hold
export {
	AGENT_KINDS,
	type AgentKind,
	BRANCH_STATES,
	type BranchState,
	branchStates,
	branchThrough,
	contextStart,
	isAgentKind,
	isTmpSessionFolder,
	memorySource,
	type OmpMetadata,
	pathToRoot,
	ROLES,
	type Role,
	readOmpMetadata,
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
	type SessionTree,
	type SessionView,
	type SideBranch,
	type TreeOptions,
	type WholeMessage,
} from "./read/index.js";
export {
	findSecrets,
	loadRedaction,
	type RedactionTally,
	redactedReply,
	redactionMarker,
	redactsByDefault,
	redactText,
	redactValue,
	type SecretFinding,
} from "./redact/index.js";
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
export type { SyncOptions, SyncProgress, SyncReport } from "./sync/index.js";
export { compactCount, flatten, formatUsd, isSessionPath, parseTimeFilter, shortTime } from "./text/index.js";
// What the sessions used and cost
export {
	type Dashboard,
	type DashboardRequest,
	PRICE_SOURCE,
	type SessionCost,
	type SessionUsage,
	type ToolCount,
	USAGE_GROUPS,
	type UsageGroup,
	type UsageReport,
	type UsageRequest,
	type UsageRow,
	type UsageTotals,
} from "./usage/index.js";
