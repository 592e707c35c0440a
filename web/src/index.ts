/**
 * `lookback/web`: lookback in a browser — the core's index API and the browser adapters (the engine loaded
 * by URL, an index kept in IndexedDB, an index read by HTTP ranges inside a Web Worker). No Node modules.
 */

// The core's index API, as `lookback` exports it for Node
export {
	DEFAULTS,
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
} from "../../src/core/index.js";

// The engine: lookback's wasm build, fetched beside the page or passed as bytes
export { loadWebEngine, type WebEngineOptions } from "./engine.js";

// Storage: a snapshot in IndexedDB, or a served index read in place
export { idbStorage } from "./idb-storage.js";
export type { IndexInfo } from "./protocol.js";
export { type RangeCounters, RangeFile, type RangeFileOptions, rangeFiles } from "./range-files.js";
export { readOnlyStorage } from "./read-only-storage.js";
export { openServed, type ServedIndex } from "./served-index.js";
