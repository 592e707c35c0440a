/** Where the index lives: the SQLite engine, its files and storages, the schema, transactions, and the index's own figures. */

export { checkEngine, ENGINE_BUILD, type Database, type EngineInfo, type SqlJsStatic } from "./engine.js";
export {
	hasEngineFiles,
	mountEngineFiles,
	openAt,
	type EmscriptenFS,
	type EngineFiles,
	type EngineFileStat,
	type EngineIoCounters,
	type FilesEngine,
	type FsNode,
} from "./engine-files.js";
export { isInPlace, memoryStorage, type IndexStorage, type InPlaceStorage, type SnapshotStorage } from "./storage.js";
export { indexBusyError, transactions, type Transactions } from "./transactions.js";
export { applyPragmas, createSchema, isEmptyDatabase, SCHEMA_VERSION, schemaProblem } from "./schema.js";
export { indexOverview, indexStats, type IndexOverview, type IndexStats } from "./stats.js";
