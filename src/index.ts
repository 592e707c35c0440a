/** The lookback package: the core engine plus the Node adapters. */

export { piAgentDir } from "./agents/pi/node/paths.js";
export * as core from "./core/index.js";
export {
	DEFAULTS,
	type IndexStats,
	type IndexStorage,
	LookbackError,
	LookbackIndex,
	memorySource,
	memoryStorage,
	type SearchHit,
	type SearchRequest,
	type SearchResponse,
	type SessionSource,
	type SessionSummary,
	type SessionView,
	type SyncReport,
} from "./core/index.js";
export { type ArchiveStats, FileArchive } from "./node/archive-store.js";
export { loadEngine } from "./node/engine.js";
export { chooseEngine, type EngineChoice, engineChoice } from "./node/engine-choice.js";
export { fileSource, type SessionRoot } from "./node/file-source.js";
export { fileStorage } from "./node/file-storage.js";
export { defaultIndexPath } from "./node/index-path.js";
export { type NodeIndex, type NodeIndexOptions, openNodeIndex, piSessionRoots } from "./node/open.js";
export { sessionPathInRoots } from "./node/paths.js";
