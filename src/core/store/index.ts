/** Where the index lives: the SQLite engine, its files and storages, the schema, transactions, and the index's own figures. */

export { checkEngine, type Database, ENGINE_BUILD, type EngineInfo, type SqlJsStatic } from "./engine.js";
export {
	type EmscriptenFS,
	type EngineFileStat,
	type EngineFiles,
	type EngineIoCounters,
	type FilesEngine,
	type FsNode,
	hasEngineFiles,
	mountEngineFiles,
	openAt,
} from "./engine-files.js";
export { APPLICATION_ID, applyPragmas, createSchema, isEmptyDatabase, SCHEMA_VERSION, schemaProblem } from "./schema.js";
export { type IndexOverview, type IndexStats, indexOverview, indexStats } from "./stats.js";
export { type IndexStorage, type InPlaceStorage, isInPlace, memoryStorage, type SnapshotStorage } from "./storage.js";
export { indexBusyError, type Transactions, transactions } from "./transactions.js";
