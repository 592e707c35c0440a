/**
 * The library API: open an index on a storage adapter, sync it from a session source, search, read,
 * browse, save. The CLI, the Pi extension and the web page use nothing else.
 */

import { DEFAULTS } from "./defaults.js";
import { checkEngine, type Database, type EngineInfo, type SqlJsStatic } from "./engine.js";
import { errorMessage, LookbackError } from "./errors.js";
import { syncIndex, type SyncOptions, type SyncReport } from "./indexer.js";
import { applyPragmas, createSchema, schemaProblem } from "./schema.js";
import { search, type SearchRequest, type SearchResponse } from "./search.js";
import { browseSessions, readSession, resolveSession, type BrowseOptions, type ReadOptions, type SessionView } from "./sessions.js";
import type { SessionRow, SessionSummary } from "./session-rows.js";
import type { SessionSource, SyncWarning } from "./source.js";
import { indexStats, metaValue, setMeta, type IndexStats } from "./stats.js";
import type { IndexStorage } from "./storage.js";

export interface OpenIndexOptions {
	/** An initialised FTS5 sql.js module (see `loadEngine` in the Node and web adapters). */
	sql: SqlJsStatic;
	storage: IndexStorage;
	/** Refuse to load an index file larger than this (default `DEFAULTS.maxLoadBytes`). */
	maxLoadBytes?: number;
}

/**
 * An open index.
 * @example
 * const index = await LookbackIndex.open({ sql, storage: fileStorage(path) });
 * await index.sync(source);
 * const { results } = index.search({ query: "sqlite lock", since: "2w" });
 * await index.save();
 */
export class LookbackIndex {
	/** Warnings from opening (an unusable index set aside and rebuilt), reported by the next sync. */
	private pendingWarnings: SyncWarning[];
	private changed = false;
	/** The source of the last sync, to re-sync a newer index another process saved. */
	private lastSource?: SessionSource;

	private constructor(
		private database: Database,
		private readonly sql: SqlJsStatic,
		readonly storage: IndexStorage,
		readonly engine: EngineInfo,
		warnings: SyncWarning[],
	) {
		this.pendingWarnings = warnings;
	}

	/** Open the index the storage holds, or a new one. An unusable index is set aside (kept) and rebuilt. */
	static async open(options: OpenIndexOptions): Promise<LookbackIndex> {
		const engine = checkEngine(options.sql);
		const { db, warnings } = await loadDatabase(options.sql, options.storage, options.maxLoadBytes);
		const index = new LookbackIndex(db, options.sql, options.storage, engine, warnings);
		index.changed = warnings.length > 0;
		return index;
	}

	/** The database (replaced when a newer index saved by another process is taken over). */
	get db(): Database {
		return this.database;
	}

	/** Whether the index changed since it was opened or last saved. */
	get dirty(): boolean {
		return this.changed;
	}

	/** Bring the index up to date with a session source. Never throws for bad session data. */
	async sync(source: SessionSource, options: SyncOptions = {}): Promise<SyncReport> {
		this.lastSource = source;
		const report = await syncIndex(this.db, source, options);
		report.warnings.unshift(...this.pendingWarnings);
		this.pendingWarnings = [];
		if (report.changed) {
			this.changed = true;
			setMeta(this.db, "last_sync", JSON.stringify({ at: new Date().toISOString(), skipped: report.skipped }));
		}
		return report;
	}

	/**
	 * Save when something changed; returns whether it saved. Under the storage's lock: when another process
	 * saved a newer index since this one was loaded, that index is taken over and brought up to date with this
	 * process's last source first, so a newer index is never replaced by an older one.
	 */
	async save(): Promise<boolean> {
		if (!this.changed) return false;
		const exclusive = this.storage.exclusive?.bind(this.storage) ?? (<T>(fn: () => Promise<T>) => fn());
		await exclusive(async () => {
			if (this.storage.changedSinceLoad?.()) {
				const newer = await loadDatabase(this.sql, this.storage);
				this.database.close();
				this.database = newer.db;
				if (this.lastSource) await syncIndex(this.db, this.lastSource);
			}
			setMeta(this.db, "generation", String(Number(metaValue(this.db, "generation") ?? 0) + 1));
			const bytes = this.db.export();
			applyPragmas(this.db); // export() reopens the connection, which resets per-connection settings
			await this.storage.save(bytes);
		});
		this.changed = false;
		return true;
	}

	search(request: SearchRequest): SearchResponse {
		return search(this.db, request);
	}

	/** A session by full id, unique id prefix or indexed path. */
	session(ref: string): SessionRow {
		return resolveSession(this.db, ref);
	}

	read(ref: string, options: ReadOptions = {}): SessionView {
		return readSession(this.db, resolveSession(this.db, ref), options);
	}

	browse(options: BrowseOptions = {}): SessionSummary[] {
		return browseSessions(this.db, options);
	}

	stats(): IndexStats {
		return indexStats(this.db);
	}

	close(): void {
		this.db.close();
	}
}

/** The database a storage holds, or a new one; an unusable one is set aside (kept) with a warning. */
async function loadDatabase(sql: SqlJsStatic, storage: IndexStorage, maxLoadBytes: number = DEFAULTS.maxLoadBytes): Promise<{ db: Database; warnings: SyncWarning[] }> {
	const warnings: SyncWarning[] = [];
	const bytes = await storage.load();
	if (bytes && bytes.length > maxLoadBytes) {
		throw new LookbackError(
			"index-too-large",
			`the index ${storage.describe()} is ${(bytes.length / 1e9).toFixed(2)} GB; the in-memory engine holds at most ${(maxLoadBytes / 1e9).toFixed(2)} GB. Use a separate --index for some session folders, or delete it to rebuild a smaller one.`,
		);
	}
	let db: Database | undefined;
	if (bytes && bytes.length > 0) {
		let problem: string | undefined;
		try {
			db = new sql.Database(bytes);
			problem = schemaProblem(db);
		} catch (error) {
			problem = `unreadable index (${errorMessage(error)})`;
		}
		if (problem) {
			db?.close();
			db = undefined;
			const setAside = await storage.setAside?.(problem);
			warnings.push({ kind: "index-rebuilt", reason: problem, setAside });
		}
	}
	const fresh = !db;
	db ??= new sql.Database();
	applyPragmas(db);
	if (fresh) createSchema(db);
	return { db, warnings };
}
