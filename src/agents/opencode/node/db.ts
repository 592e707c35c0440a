/**
 * OpenCode's database (`opencode.db`, WAL mode), read while OpenCode may be writing it: through lookback's own
 * wasm engine, as a read-only file whose pages come from a `WalSnapshot` (src/node/wal-snapshot.ts), so nothing
 * beside the database is ever created, written, checkpointed or locked, whatever engine holds lookback's index.
 * Every read runs on one snapshot and is run again on a new one when a checkpoint or a restart of the WAL may have
 * changed its pages meanwhile. A session is rendered as OpenCode's own export (`opencode export`:
 * `{info, messages: [{info, parts}]}`), which ../format.ts reads.
 */

import { type Database, type EngineFiles, errorMessage, LookbackError, mountEngineFiles, openAt } from "../../../core/index.js";
import { hostIo, loadEngine, type NodeEngine } from "../../../node/engine.js";
import { sleepSync } from "../../../node/process-identity.js";
import { WalSnapshot } from "../../../node/wal-snapshot.js";
import { boundedPart, type OpencodeDocument, type OpencodeMessage } from "./render.js";

/** Identities of the mounted database files: SQLite shares lock state between connections to one (device, inode). */
let nextIno = 1000;

/** How often a read is tried on a new snapshot before the database is reported busy (OpenCode checkpointing all the while). */
const ATTEMPTS = 12;

/** A session as the walk lists it: what decides whether it changed, and how it is linked. */
export interface OpencodeSessionStamp {
	id: string;
	parentId: string | null;
	directory: string | null;
	/** `time_updated` (ms), or the newest message's `time_created` when that is later. */
	updated: number;
	messages: number;
}

const opened = new Map<string, Promise<OpencodeDb>>();

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

type Row = Record<string, unknown>;

function rows(db: Database, sql: string, params: (string | number)[] = []): Row[] {
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

function columnsOf(db: Database, table: string): Set<string> {
	return new Set(rows(db, `PRAGMA table_info(${table})`).map((r) => String(r.name)));
}

function parseJson(text: unknown): Record<string, unknown> | undefined {
	if (typeof text !== "string") return undefined;
	try {
		const value = JSON.parse(text) as unknown;
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The session row as OpenCode's `Session.Info` (what `opencode export` prints as `info`). */
function sessionInfo(row: Row): Record<string, unknown> {
	const json = (v: unknown) => parseJson(v);
	return {
		id: row.id,
		slug: str(row.slug),
		projectID: str(row.project_id),
		directory: str(row.directory),
		...(str(row.parent_id) ? { parentID: row.parent_id } : {}),
		title: str(row.title),
		version: str(row.version),
		...(json(row.revert) ? { revert: json(row.revert) } : {}),
		time: {
			created: num(row.time_created),
			updated: num(row.time_updated),
			...(num(row.time_compacting) ? { compacting: row.time_compacting } : {}),
			...(num(row.time_archived) ? { archived: row.time_archived } : {}),
		},
	};
}

/** One OpenCode database opened through the engine, read on snapshots. */
export class OpencodeDb {
	private snapshot: WalSnapshot | undefined;
	private db: Database | undefined;
	private enginePath: string | undefined;
	private readonly ino = nextIno++;
	/** The sessions of the last listing, and the snapshot they were read from. */
	private listed: OpencodeSessionStamp[] | undefined;
	private listedAt: WalSnapshot | undefined;

	private constructor(
		readonly path: string,
		private readonly engine: NodeEngine,
	) {}

	/** The database at `path`, one per process (its folder is mounted in the engine once). */
	static open(path: string): Promise<OpencodeDb> {
		let db = opened.get(path);
		if (!db) {
			db = loadEngine().then((engine) => new OpencodeDb(path, engine));
			opened.set(path, db);
			db.catch(() => opened.delete(path));
		}
		return db;
	}

	/** The engine's folder holding the snapshot as one read-only file, "opencode.db"; mounted once. */
	private files(): EngineFiles {
		const ino = this.ino;
		const current = () => {
			if (!this.snapshot) throw fsError("ENOENT", "no snapshot");
			return this.snapshot;
		};
		const refuse = () => {
			throw fsError("EACCES", "OpenCode's database is read only");
		};
		return {
			stat: (name) =>
				name === ""
					? { size: 0, ino: 1, mtimeMs: 0, isDirectory: true }
					: name === "opencode.db"
						? { size: current().size, ino, mtimeMs: 0, isDirectory: false }
						: undefined,
			open(name, mode) {
				if (mode.write) refuse();
				if (name !== "" && name !== "opencode.db") throw fsError("ENOENT", name);
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
		this.enginePath ??= `${mountEngineFiles(this.engine.FS, this.files(), `opencode:${this.path}`, hostIo)}/opencode.db`;
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
	private read<T>(read: (db: Database) => T, fresh: boolean, taken?: WalSnapshot): T {
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
			`OpenCode's database changed under every read (${ATTEMPTS} tries${last ? `; ${errorMessage(last)}` : ""}): ${this.path}`,
		);
	}

	/**
	 * Every session, from the newest commit: its stamp for the sync and its links. A database whose last commit is
	 * the one listed before (the same WAL frames, or the same main file with none) is not read again.
	 * Throws when the file is no OpenCode database.
	 */
	sessions(): OpencodeSessionStamp[] {
		const taken = WalSnapshot.take(this.path, this.snapshot);
		if (this.listed && this.listedAt?.sameCommit(taken)) {
			taken.close();
			return this.listed;
		}
		this.listed = this.read(
			(db) => {
				const cols = columnsOf(db, "session");
				if (!cols.has("id")) throw new LookbackError("io", `${this.path} has no session table: not an OpenCode database`);
				const pick = (name: string) => (cols.has(name) ? name : "NULL");
				const counts = new Map<string, { n: number; last: number }>();
				if (columnsOf(db, "message").has("session_id"))
					for (const r of rows(db, "SELECT session_id AS s, count(*) AS n, max(time_created) AS last FROM message GROUP BY session_id"))
						counts.set(String(r.s), { n: Number(r.n), last: Number(r.last) || 0 });
				return rows(
					db,
					`SELECT id, ${pick("parent_id")} AS parent, ${pick("directory")} AS dir, ${pick("time_updated")} AS updated FROM session`,
				).map((r) => {
					const c = counts.get(String(r.id));
					return {
						id: String(r.id),
						parentId: str(r.parent) ?? null,
						directory: str(r.dir) ?? null,
						updated: Math.max(num(r.updated) ?? 0, c?.last ?? 0),
						messages: c?.n ?? 0,
					};
				});
			},
			true,
			taken,
		);
		// The snapshot the list was read from (a later read of one session may move on to a newer one).
		this.listedAt = this.snapshot;
		return this.listed;
	}

	/** One session as OpenCode exports it, from the snapshot of the last walk (or a newer one); undefined when it is gone. */
	session(id: string): OpencodeDocument | undefined {
		return this.read((db) => {
			const row = rows(db, "SELECT * FROM session WHERE id = ?", [id])[0];
			if (!row) return undefined;
			const partCols = columnsOf(db, "part");
			const messages: OpencodeMessage[] = [];
			const byId = new Map<string, OpencodeMessage>();
			for (const m of rows(db, "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", [id])) {
				const data = parseJson(m.data);
				const message: OpencodeMessage = { info: data ? { id: m.id, sessionID: id, ...data } : null, parts: [] };
				messages.push(message);
				byId.set(String(m.id), message);
			}
			const parts = partCols.has("session_id")
				? rows(db, "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", [id])
				: rows(
						db,
						"SELECT p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.message_id, p.id",
						[id],
					);
			for (const p of parts) {
				const message = byId.get(String(p.message_id));
				if (!message) continue;
				const data = parseJson(p.data);
				message.parts.push(data ? boundedPart({ id: p.id, sessionID: id, messageID: p.message_id, ...data }) : null);
			}
			return { info: sessionInfo(row), messages };
		}, false);
	}

	close(): void {
		this.db?.close();
		this.db = undefined;
		this.snapshot?.close();
		this.snapshot = undefined;
	}
}
