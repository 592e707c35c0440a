/**
 * The library API: open an index on a storage adapter, sync it from a session source, search, read,
 * browse, save. The CLI, the Pi extension and the web page use nothing else.
 */

import { DEFAULTS } from "./defaults.js";
import { errorMessage, LookbackError } from "./errors.js";
import type { SessionSource, SyncWarning } from "./parse/index.js";
import {
	type ActivityDay,
	activityByDay,
	type BrowseOptions,
	browseSessions,
	latestSummary,
	type MatchOptions,
	matchingSessions,
	type ProjectCount,
	projectCounts,
	type ReadOptions,
	readSession,
	readTree,
	resolveSession,
	type SessionRow,
	type SessionSummary,
	type SessionTree,
	type SessionView,
	type TreeOptions,
} from "./read/index.js";
import {
	type InSessionRequest,
	type InSessionResponse,
	type SearchRequest,
	type SearchResponse,
	search,
	searchInSession,
} from "./search/index.js";
import {
	applyPragmas,
	checkEngine,
	createSchema,
	type Database,
	type EngineInfo,
	type IndexOverview,
	type IndexStats,
	type IndexStorage,
	type InPlaceStorage,
	indexOverview,
	indexStats,
	isEmptyDatabase,
	isInPlace,
	type SnapshotStorage,
	type SqlJsStatic,
	schemaProblem,
	type Transactions,
	transactions,
} from "./store/index.js";
import { forgetFiles, type SyncOptions, type SyncReport, syncIndex } from "./sync/index.js";
import {
	type BlockReport,
	type BlockRequest,
	type Dashboard,
	type DashboardRequest,
	type StatusFigures,
	statusFigures,
	type UsageReport,
	type UsageRequest,
	usageBlocks,
	usageDashboard,
	usageReport,
} from "./usage/index.js";

export interface OpenIndexOptions {
	/** An initialised FTS5 sql.js module (see `loadEngine` in the Node and web adapters). */
	sql: SqlJsStatic;
	storage: IndexStorage;
	/** Refuse to load a snapshot larger than this (default `DEFAULTS.maxLoadBytes`). */
	maxLoadBytes?: number;
}

/**
 * An open index.
 * @example
 * const index = await LookbackIndex.open({ sql, storage: fileStorage(path) });
 * await index.sync(source);
 * const { results } = index.search({ query: "sqlite lock", since: "2w" });
 * await index.save(); // a snapshot storage only: an index opened in place commits as it syncs
 */
export class LookbackIndex {
	/** Warnings from opening (an unusable index set aside and rebuilt), reported by the next sync. */
	private pendingWarnings: SyncWarning[];
	private changed = false;
	private readonly tx: Transactions;

	private constructor(
		private database: Database,
		private readonly sql: SqlJsStatic,
		readonly storage: IndexStorage,
		readonly engine: EngineInfo,
		warnings: SyncWarning[],
	) {
		this.pendingWarnings = warnings;
		this.tx = transactions(isInPlace(storage) ? (error) => storage.isBusy(error) : undefined);
	}

	/** Open the index the storage holds, or a new one. An unusable index is set aside (kept) and rebuilt. */
	static async open(options: OpenIndexOptions): Promise<LookbackIndex> {
		const engine = checkEngine(options.sql);
		const { storage, sql } = options;
		const tx = transactions(isInPlace(storage) ? (error) => storage.isBusy(error) : undefined);
		const { db, warnings } = isInPlace(storage)
			? await openInPlace(sql, storage, tx)
			: await loadSnapshot(sql, storage, options.maxLoadBytes);
		const index = new LookbackIndex(db, sql, storage, engine, warnings);
		index.changed = warnings.length > 0 && !isInPlace(storage);
		return index;
	}

	/** The database (opened again when another process replaced the file). */
	get db(): Database {
		return this.database;
	}

	/** Whether a snapshot index changed since it was opened or last saved (an index opened in place never waits for a save). */
	get dirty(): boolean {
		return this.changed;
	}

	/** Open the file again if it was replaced underneath (by an older lookback that saves whole files, or a user). */
	private async current(): Promise<void> {
		if (!isInPlace(this.storage) || this.tx.writing() || !this.storage.replaced()) return;
		this.database.close();
		this.database = (await openInPlace(this.sql, this.storage, this.tx)).db;
	}

	/** Bring the index up to date with a session source. Never throws for bad session data. */
	async sync(source: SessionSource, options: SyncOptions = {}): Promise<SyncReport> {
		if (isInPlace(this.storage) && this.storage.readOnly)
			throw new LookbackError("read-only", `the index ${this.storage.describe()} is open read-only`);
		await this.current();
		const inPlace = isInPlace(this.storage);
		const report = await syncIndex(this.db, source, {
			maxIndexBytes: inPlace ? undefined : DEFAULTS.maxIndexBytes,
			...options,
			transactions: this.tx,
		});
		report.warnings.unshift(...this.pendingWarnings);
		this.pendingWarnings = [];
		if (report.changed && !inPlace) this.changed = true;
		return report;
	}

	/** Save a snapshot index when something changed; returns whether it saved. An index opened in place has nothing to save. */
	async save(): Promise<boolean> {
		if (!this.changed || isInPlace(this.storage)) return false;
		const bytes = this.db.export();
		applyPragmas(this.db, "snapshot"); // export() reopens the connection, which resets per-connection settings
		await this.storage.save(bytes);
		this.changed = false;
		return true;
	}

	/** Run reads as one read transaction: a consistent view, and one lock taken instead of one per statement. */
	reading<T>(fn: (db: Database) => T): T {
		if (isInPlace(this.storage) && !this.tx.writing() && this.storage.replaced()) {
			this.database.close();
			this.database = this.storage.open(this.sql);
			this.tx.attempt(() => applyPragmas(this.database, "in-place"));
		}
		return this.tx.read(this.db, () => fn(this.db));
	}

	search(request: SearchRequest): SearchResponse {
		return this.reading((db) => search(db, request));
	}

	/** Every entry of one session (full id, unique id prefix or indexed path) that matches a query, in order, paged. */
	searchSession(ref: string, request: InSessionRequest): InSessionResponse {
		return this.reading((db) => searchInSession(db, resolveSession(db, ref), request));
	}

	/** A session by full id, unique id prefix or indexed path. */
	session(ref: string): SessionRow {
		return this.reading((db) => resolveSession(db, ref));
	}

	read(ref: string, options: ReadOptions = {}): SessionView {
		return this.reading((db) => readSession(db, resolveSession(db, ref), options));
	}

	/** Every entry of a session and its messages whole (long ones read from the file with `readRange`): what an export shows. */
	readTree(ref: string, options: TreeOptions = {}): SessionTree {
		return this.reading((db) => readTree(db, resolveSession(db, ref), options));
	}

	browse(options: BrowseOptions = {}): SessionSummary[] {
		return this.reading((db) => browseSessions(db, options));
	}

	/** Every session a filter selects, with the sub-agents they spawned, no limit (what `forget` would remove). */
	matching(options: MatchOptions): SessionSummary[] {
		return this.reading((db) => matchingSessions(db, options));
	}

	/**
	 * Remove the sessions of these files from the index for good; returns how many it held. The next sync
	 * indexes them again unless the source's archive holds their tombstones (`FileArchive.forget`).
	 */
	async forget(paths: readonly string[]): Promise<number> {
		if (isInPlace(this.storage) && this.storage.readOnly)
			throw new LookbackError("read-only", `the index ${this.storage.describe()} is open read-only`);
		await this.current();
		const purged = await forgetFiles(this.db, this.tx, paths);
		if (purged > 0 && !isInPlace(this.storage)) this.changed = true;
		return purged;
	}

	/** The newest compaction or branch summary of a session, cut to `DEFAULTS.summaryChars`, or undefined. */
	latestSummary(ref: string): string | undefined {
		return this.reading((db) => latestSummary(db, resolveSession(db, ref).id));
	}

	/** Sessions and messages per day, for the viewer's activity chart. */
	activity(): ActivityDay[] {
		return this.reading((db) => activityByDay(db));
	}

	/** Projects with their session and message counts. */
	projects(): ProjectCount[] {
		return this.reading((db) => projectCounts(db));
	}

	/** Tokens, cost, sessions, messages and tool calls, grouped (`by`, default day) under a session filter. */
	usage(request: UsageRequest = {}): UsageReport {
		return this.reading((db) => usageReport(db, request));
	}

	/** Billing blocks (five-hour windows), the active one with its burn rate and projection. */
	usageBlocks(request: BlockRequest = {}): BlockReport {
		return this.reading((db) => usageBlocks(db, request));
	}

	/** What a status line shows: a session's cost, today's, the last block's (status.ts). */
	statusFigures(request: { sessionId?: string; now?: number; timeZone?: string } = {}): StatusFigures {
		return this.reading((db) => statusFigures(db, request));
	}

	/** The viewer's dashboard: cost over time, activity per day, top projects, models, tools and sessions. */
	dashboard(request: DashboardRequest = {}): Dashboard {
		return this.reading((db) => usageDashboard(db, request));
	}

	/** Sessions, messages and last sync, without reading the entries (see `stats` for every figure). */
	overview(): IndexOverview {
		return this.reading((db) => indexOverview(db));
	}

	stats(): IndexStats {
		return this.reading((db) => indexStats(db));
	}

	close(): void {
		this.db.close();
	}
}

type Opened = { db: Database; warnings: SyncWarning[] };

/** The database a snapshot storage holds, or a new one; an unusable one is set aside (kept) with a warning. */
async function loadSnapshot(sql: SqlJsStatic, storage: SnapshotStorage, maxLoadBytes: number = DEFAULTS.maxLoadBytes): Promise<Opened> {
	const warnings: SyncWarning[] = [];
	const bytes = await storage.load();
	if (bytes && bytes.length > maxLoadBytes) {
		throw new LookbackError(
			"index-too-large",
			`the index ${storage.describe()} is ${(bytes.length / 1e9).toFixed(2)} GB; the in-memory engine holds at most ${(maxLoadBytes / 1e9).toFixed(2)} GB. Use a separate index for some session folders, or delete it to rebuild a smaller one.`,
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
	applyPragmas(db, "snapshot");
	if (fresh) createSchema(db);
	return { db, warnings };
}

/** The database an in-place storage holds, its tables created when it is new; an unusable one is set aside (kept) with a warning. */
async function openInPlace(sql: SqlJsStatic, storage: InPlaceStorage, tx: Transactions): Promise<Opened> {
	const warnings: SyncWarning[] = [];
	let db = storage.open(sql);
	let problem: string | undefined;
	try {
		tx.attempt(() => applyPragmas(db, "in-place"));
		problem = tx.read(db, () => (isEmptyDatabase(db) ? undefined : schemaProblem(db)));
	} catch (error) {
		if (error instanceof LookbackError) {
			db.close();
			throw error;
		}
		problem = `unreadable index (${errorMessage(error)})`;
	}
	if (!problem && storage.readOnly && tx.read(db, () => isEmptyDatabase(db))) problem = "not a lookback index (an empty file)";
	if (problem && storage.readOnly) {
		db.close();
		throw new LookbackError("index-unusable", `cannot read the index ${storage.describe()}: ${problem}`);
	}
	if (storage.readOnly) db.run("PRAGMA query_only = 1");
	if (problem) {
		db.close();
		const setAside = await storage.setAside(problem);
		warnings.push({ kind: "index-rebuilt", reason: problem, setAside });
		db = storage.open(sql);
		applyPragmas(db, "in-place");
	}
	if (tx.read(db, () => isEmptyDatabase(db))) {
		await tx.beginWrite(db);
		try {
			// Another process may have created the tables since the read.
			if (isEmptyDatabase(db)) createSchema(db);
			await tx.commit(db);
		} catch (error) {
			tx.rollback(db);
			db.close();
			throw error;
		}
	}
	return { db, warnings };
}
