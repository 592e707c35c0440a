/**
 * Another program's SQLite database in WAL mode (OpenCode's, OpenClaw's), read while that program may be writing it:
 * through lookback's own wasm engine, as a read-only file whose pages come from a `WalSnapshot` (wal-snapshot.ts), so
 * nothing beside the database is ever created, written, checkpointed or locked, whatever engine holds lookback's
 * index. Every read runs on one snapshot and is run again on a new one when a checkpoint or a restart of the WAL may
 * have changed its pages meanwhile. The agent's Node part asks its own queries (DESIGN.md, "Another program's database").
 */

import { type Database, type EngineFiles, errorMessage, LookbackError, mountEngineFiles, openAt } from "../core/index.js";
import { hostIo, loadEngine, type NodeEngine } from "./engine.js";
import { sleepSync } from "./process-identity.js";
import { WalSnapshot } from "./wal-snapshot.js";

/** Identities of the mounted database files: SQLite shares lock state between connections to one (device, inode). */
let nextIno = 1000;

/** How often a read is tried on a new snapshot before the database is reported busy (its program checkpointing all the while). */
const ATTEMPTS = 12;

const opened = new Map<string, Promise<SnapshotDb>>();

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

export type Row = Record<string, unknown>;

export function rows(db: Database, sql: string, params: (string | number)[] = []): Row[] {
	const stmt = db.prepare(sql);
	try {
		stmt.bind(params);
		const out: Row[] = [];
		while (stmt.step()) out.push(stmt.getAsObject() as Row);
		return out;
	} finally {
		stmt.free();
	}
}

export function columnsOf(db: Database, table: string): Set<string> {
	return new Set(rows(db, `PRAGMA table_info(${table})`).map((r) => String(r.name)));
}

export function parseJson(text: unknown): Record<string, unknown> | undefined {
	if (typeof text !== "string") return undefined;
	try {
		const value = JSON.parse(text) as unknown;
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

export const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** One database opened through the engine, read on snapshots; an agent's reader adds its queries. */
export class SnapshotDb {
	private snapshot: WalSnapshot | undefined;
	private db: Database | undefined;
	private enginePath: string | undefined;
	private readonly ino = nextIno++;
	/** The answer of the last listing, and the snapshot it was read from. */
	private listed: unknown;
	private listedAt: WalSnapshot | undefined;

	/** `what`: whose database it is, in errors ("OpenCode's database"). */
	constructor(
		readonly path: string,
		private readonly engine: NodeEngine,
		private readonly what: string,
	) {}

	/** The engine's folder holding the snapshot as one read-only file, "db"; mounted once. */
	private files(): EngineFiles {
		const ino = this.ino;
		const current = () => {
			if (!this.snapshot) throw fsError("ENOENT", "no snapshot");
			return this.snapshot;
		};
		const what = this.what;
		const refuse = () => {
			throw fsError("EACCES", `${what} is read only`);
		};
		return {
			stat: (name) =>
				name === ""
					? { size: 0, ino: 1, mtimeMs: 0, isDirectory: true }
					: name === "db"
						? { size: current().size, ino, mtimeMs: 0, isDirectory: false }
						: undefined,
			open(name, mode) {
				if (mode.write) refuse();
				if (name !== "" && name !== "db") throw fsError("ENOENT", name);
				return 1;
			},
			close: () => undefined,
			read: (_handle, into, offset, length, position) => current().read(into, offset, length, position),
			write: refuse,
			size: () => current().size,
			truncate: refuse,
			sync: () => undefined,
			create: refuse,
			unlink: refuse,
		};
	}

	/** A new snapshot (continuing the last one's scan of the WAL) and a new connection to it: the engine caches pages. */
	private refresh(taken?: WalSnapshot): Database {
		this.db?.close();
		this.db = undefined;
		const previous = this.snapshot;
		// Closed first (its scan stays readable): a snapshot that cannot be taken leaves none.
		this.snapshot = undefined;
		previous?.close();
		this.snapshot = taken ?? WalSnapshot.take(this.path, previous);
		this.enginePath ??= `${mountEngineFiles(this.engine.FS, this.files(), `snapshot:${this.path}`, hostIo)}/db`;
		try {
			this.db = openAt(this.engine, this.enginePath);
		} catch (error) {
			throw new LookbackError("io", `${this.path} cannot be opened as a database (${errorMessage(error)})`);
		}
		this.db.run("PRAGMA query_only = 1");
		return this.db;
	}

	/**
	 * Run `read` on a snapshot, again on a new one while a checkpoint or a WAL restart may have changed what it read.
	 * `fresh`: start from the newest commit (a walk); else the snapshot of the last read (a session the walk listed).
	 */
	protected read<T>(read: (db: Database) => T, fresh: boolean, taken?: WalSnapshot): T {
		let renew = fresh || !this.db;
		let last: unknown;
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			try {
				const db = renew || !this.db ? this.refresh(attempt === 0 ? taken : undefined) : this.db;
				const snapshot = this.snapshot!;
				snapshot.startReads();
				const result = read(db);
				if (snapshot.stillValid()) return result;
			} catch (error) {
				// No snapshot (the file is gone, or no database), or one nothing changed under: the error is the file's own.
				if (!this.snapshot || this.snapshot.stillValid()) throw error;
				last = error;
			}
			renew = true;
			sleepSync(attempt * 5);
		}
		throw new LookbackError(
			"index-busy",
			`${this.what} changed under every read (${ATTEMPTS} tries${last ? `; ${errorMessage(last)}` : ""}): ${this.path}`,
		);
	}

	/** The database at `path` read by `make`'s kind, one per process and kind (its folder is mounted in the engine once). */
	static openAs<T extends SnapshotDb>(kind: string, path: string, make: (path: string, engine: NodeEngine) => T): Promise<T> {
		const key = `${kind}:${path}`;
		let db = opened.get(key) as Promise<T> | undefined;
		if (!db) {
			db = loadEngine().then((engine) => make(path, engine));
			opened.set(key, db);
			db.catch(() => opened.delete(key));
		}
		return db;
	}

	/**
	 * A read from the newest commit, unless the database shows the commit the last such read saw (the same WAL frames,
	 * or the same untouched main file with none): then that read's answer again.
	 */
	protected listing<T>(read: (db: Database) => T): T {
		const taken = WalSnapshot.take(this.path, this.snapshot);
		if (this.listed !== undefined && this.listedAt?.sameCommit(taken)) {
			taken.close();
			return this.listed as T;
		}
		const listed = this.read(read, true, taken);
		this.listed = listed;
		// The snapshot the list was read from (a later read of one session may move on to a newer one).
		this.listedAt = this.snapshot;
		return listed;
	}

	close(): void {
		this.db?.close();
		this.db = undefined;
		this.snapshot?.close();
		this.snapshot = undefined;
	}
}
