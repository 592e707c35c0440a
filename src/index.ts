/** The lookback package: the core engine plus the Node adapters. */

export * as core from "./core/index.js";
export {
	LookbackIndex,
	LookbackError,
	DEFAULTS,
	memoryStorage,
	memorySource,
	type IndexStorage,
	type SessionSource,
	type SearchRequest,
	type SearchResponse,
	type SearchHit,
	type SessionView,
	type SessionSummary,
	type SyncReport,
	type IndexStats,
} from "./core/index.js";
export { loadEngine } from "./node/engine.js";
export { chooseEngine, engineChoice, type EngineChoice } from "./node/engine-choice.js";
export { fileStorage } from "./node/file-storage.js";
export { fileSource, type SessionRoot } from "./node/file-source.js";
export { openNodeIndex, piSessionRoots, type NodeIndex, type NodeIndexOptions } from "./node/open.js";
export { piAgentDir, defaultIndexPath, sessionPathInRoots } from "./node/paths.js";
