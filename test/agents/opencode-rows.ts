/**
 * OpenCode's tables written the way OpenCode writes them: SQLite (lookback's wasm engine) on the real files, in WAL
 * mode, so a commit sits in `<db>-wal` until a checkpoint. The engine has no shared memory, so the writer takes
 * the database in exclusive locking mode: SQLite then keeps the WAL's index in its own memory (never a `-shm`).
 */

import { copyFileSync, mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type Database, mountEngineFiles, openAt } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { hostFiles } from "../../src/node/host-files.js";

export const FIXTURE_DB = join(import.meta.dirname, "..", "fixtures", "opencode", "opencode.db");
/** The sessions of the fixture: the one the person drove, and the sub-agent its task call spawned. */
export const FIXTURE_SESSION = "ses_dcc41defbffe8QM9BJoRDkefx0";
export const FIXTURE_CHILD = "ses_dcc41549bffepOGQp8sMGx7ZXg";

/** A data folder (`$XDG_DATA_HOME/opencode`) holding a copy of the fixture database. */
export function fixtureDataDir(xdgData: string): string {
	const dir = join(xdgData, "opencode");
	mkdirSync(dir, { recursive: true });
	copyFileSync(FIXTURE_DB, join(dir, "opencode.db"));
	return dir;
}

/** The database at `path` opened for writing in WAL mode; its commits stay in the WAL until `close()` checkpoints them. */
export async function openForWrite(path: string, options: { autocheckpoint?: number } = {}): Promise<Database> {
	const engine = await loadEngine();
	const mountpoint = mountEngineFiles(engine.FS, hostFiles(dirname(path)), `writer:${dirname(path)}`, {
		reads: 0,
		bytesRead: 0,
		writes: 0,
		fsyncs: 0,
	});
	const db = openAt(engine, `${mountpoint}/${basename(path)}`);
	db.run("PRAGMA locking_mode = EXCLUSIVE");
	db.run("PRAGMA journal_mode = WAL");
	db.run(`PRAGMA wal_autocheckpoint = ${options.autocheckpoint ?? 0}`);
	return db;
}

export interface SessionRow {
	id: string;
	parentId?: string;
	directory?: string;
	title?: string;
	version?: string;
	created?: number;
	updated?: number;
	revert?: unknown;
}

export function addSession(db: Database, s: SessionRow): void {
	db.run(
		`INSERT INTO session(id, project_id, parent_id, slug, directory, title, version, revert, time_created, time_updated)
		 VALUES (?, 'global', ?, 'built-session', ?, ?, ?, ?, ?, ?)`,
		[
			s.id,
			s.parentId ?? null,
			s.directory ?? "/home/user/built",
			s.title ?? "New session - 2026-12-01T10:00:00.000Z",
			s.version ?? "1.18.33",
			s.revert === undefined ? null : JSON.stringify(s.revert),
			s.created ?? 1_796_000_000_000,
			s.updated ?? 1_796_000_000_000,
		],
	);
}

/** A message row (`data` is OpenCode's JSON without id and session; a string is written as it is, malformed or not). */
export function addMessage(db: Database, session: string, id: string, created: number, data: object | string): void {
	db.run("INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)", [
		id,
		session,
		created,
		created,
		typeof data === "string" ? data : JSON.stringify(data),
	]);
}

export function addPart(db: Database, session: string, message: string, id: string, data: object | string): void {
	db.run("INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)", [
		id,
		message,
		session,
		1_796_000_000_000,
		1_796_000_000_000,
		typeof data === "string" ? data : JSON.stringify(data),
	]);
}

/** What an answer of `promptedSession` used: its model, cost, and tokens (each kind 0 unless given). */
export interface AnswerRow {
	provider: string;
	model: string;
	cost: number;
	tokens?: { input?: number; output?: number; reasoning?: number; cache?: { read: number; write: number } };
	finish?: string;
}

/** An answer to the prompt of `promptedSession` `session`, as OpenCode writes its row, completed a millisecond after `at`. */
export function addAnswer(db: Database, session: string, id: string, at: number, a: AnswerRow): void {
	addMessage(db, session, id, at, {
		role: "assistant",
		parentID: `${session}_m0`,
		providerID: a.provider,
		modelID: a.model,
		cost: a.cost,
		tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 }, ...a.tokens },
		time: { created: at, completed: at + 1 },
		finish: a.finish ?? "stop",
	});
}

/**
 * A data folder holding a copy of the fixture database and, in it, one more session of one prompt at time `t`, open
 * for the rows a test adds (the caller closes it).
 */
export async function promptedSession(xdgData: string, id: string, prompt: string, t: number): Promise<{ dir: string; db: Database }> {
	const dir = fixtureDataDir(xdgData);
	const db = await openForWrite(join(dir, "opencode.db"));
	addSession(db, { id, title: prompt });
	addMessage(db, id, `${id}_m0`, t, { role: "user", time: { created: t } });
	addPart(db, id, `${id}_m0`, `${id}_p0`, { type: "text", text: prompt });
	return { dir, db };
}
