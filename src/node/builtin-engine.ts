/**
 * The SQLite built into the host — `node:sqlite` (Node ≥ 22.13) or `bun:sqlite` (Bun) — behind the part of
 * sql.js's API the core uses, so the same core code runs on it. On an index opened in place it follows
 * lookback's lock protocol at the level of transactions: SHARED around every read, RESERVED before
 * BEGIN IMMEDIATE, EXCLUSIVE (readers drained) before COMMIT, with cache spill off so no page reaches the
 * file before the commit holds EXCLUSIVE. Its own fcntl locks go on working between native processes.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../core/index.js";
import { lockWaits, waitFor, waitShared } from "./engine-locks.js";
import type { IndexLocks } from "./index-locks.js";

type Value = string | number | null | Uint8Array;
type Row = Record<string, unknown>;

/** What node:sqlite's DatabaseSync and bun:sqlite's Database both offer. */
interface HostDatabase {
	exec(sql: string): unknown;
	prepare(sql: string): HostStatement;
	close(): void;
}

interface HostStatement {
	iterate(...params: Value[]): IterableIterator<Row>;
	columns?(): { name: string }[];
	columnNames?: string[];
}

type OpenHost = (path: string) => HostDatabase;

/** SQLite's message for a lock that could not be had, so that callers retry as they do with the wasm engine. */
function busy(): Error {
	return new Error("database is locked");
}

function columnNames(stmt: HostStatement, row: Row | undefined): string[] {
	return stmt.columns?.().map((c) => c.name) ?? stmt.columnNames ?? (row ? Object.keys(row) : []);
}

function normalise(value: unknown): unknown {
	// bun:sqlite hands blobs out as Buffers; sql.js and node:sqlite as plain Uint8Arrays.
	return value instanceof Uint8Array && value.constructor !== Uint8Array
		? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
		: value;
}

function plainRow(row: Row): Row {
	const out: Row = {};
	for (const key of Object.keys(row)) out[key] = normalise(row[key]);
	return out;
}

/** Lock levels taken around statements and transactions; without lock files (a private copy) it does nothing. */
class TransactionLocks {
	private state: "none" | "read" | "write" = "none";
	constructor(private readonly locks: IndexLocks | undefined) {}

	/** SHARED for a statement outside a transaction, until the returned function is called. */
	hold(): () => void {
		const locks = this.locks;
		if (!locks || this.state !== "none") return () => undefined;
		if (!waitShared(locks)) throw busy();
		this.state = "read";
		return () => {
			this.state = "none";
			locks.release("none");
		};
	}

	/** Around one statement outside a transaction: SHARED for its duration. */
	statement<T>(fn: () => T): T {
		const release = this.hold();
		try {
			return fn();
		} finally {
			release();
		}
	}

	/** The transaction statements themselves: BEGIN, BEGIN IMMEDIATE, COMMIT, ROLLBACK. */
	control(sql: string, run: () => void): boolean {
		const verb = /^\s*(BEGIN(?:\s+(?:DEFERRED|IMMEDIATE|EXCLUSIVE))?|COMMIT|END|ROLLBACK)\s*(?:TRANSACTION\s*)?;?\s*$/i
			.exec(sql)?.[1]
			?.toUpperCase()
			.replace(/\s+/g, " ");
		if (!verb) return false;
		const locks = this.locks;
		if (!locks) {
			run();
			return true;
		}
		if (verb.startsWith("BEGIN")) {
			const write = verb !== "BEGIN" && verb !== "BEGIN DEFERRED";
			if (write) {
				// Never wait for RESERVED while holding SHARED: the other writer waits for SHARED holders to leave.
				if (!(locks.shared() && locks.reserved())) {
					locks.release("none");
					throw busy();
				}
			} else if (!waitShared(locks)) throw busy();
			try {
				run();
			} catch (error) {
				locks.release("none");
				throw error;
			}
			this.state = write ? "write" : "read";
			return true;
		}
		if (verb === "ROLLBACK") {
			try {
				run();
			} finally {
				this.state = "none";
				locks.release("none");
			}
			return true;
		}
		if (this.state === "write" && !waitFor(() => locks.exclusive(), lockWaits.commitMs)) {
			locks.releasePending(); // let readers in again; the transaction stays open for the caller's retry
			throw busy();
		}
		run();
		this.state = "none";
		locks.release("none");
		return true;
	}
}

class BuiltinStatement {
	private iterator?: IterableIterator<Row>;
	private row?: Row;
	private params: Value[] = [];
	private release?: () => void;

	constructor(
		private readonly stmt: HostStatement,
		private readonly locks: TransactionLocks,
	) {}

	bind(params: Value[] = []): boolean {
		this.reset();
		this.params = params;
		return true;
	}

	/** SHARED is held from the first step to the last (or a reset), as SQLite holds its own. */
	step(): boolean {
		if (!this.iterator) {
			this.release = this.locks.hold();
			try {
				this.iterator = this.stmt.iterate(...this.params);
			} catch (error) {
				this.reset();
				throw error;
			}
		}
		let next: IteratorResult<Row>;
		try {
			next = this.iterator.next();
		} catch (error) {
			this.reset();
			throw error;
		}
		this.row = next.done ? undefined : next.value;
		if (next.done) this.reset();
		return !next.done;
	}

	getAsObject(): Row {
		return this.row ? plainRow(this.row) : {};
	}

	run(params: Value[] = []): void {
		this.bind(params);
		this.locks.statement(() => {
			for (const _ of this.stmt.iterate(...this.params));
		});
	}

	reset(): boolean {
		this.iterator?.return?.();
		this.iterator = undefined;
		this.row = undefined;
		this.release?.();
		this.release = undefined;
		return true;
	}

	free(): boolean {
		return this.reset();
	}
}

/** A database of the built-in engine with the calls of a sql.js Database. */
class BuiltinDatabase {
	private readonly locks: TransactionLocks;

	constructor(
		private readonly host: HostDatabase,
		locks: IndexLocks | undefined,
		private readonly onClose: () => void = () => undefined,
	) {
		this.locks = new TransactionLocks(locks);
	}

	run(sql: string, params?: Value[]): this {
		if (params && params.length > 0) {
			this.prepare(sql).run(params);
			return this;
		}
		if (!this.locks.control(sql, () => this.host.exec(sql))) this.locks.statement(() => this.host.exec(sql));
		return this;
	}

	exec(sql: string, params?: Value[]): { columns: string[]; values: unknown[][] }[] {
		return this.locks.statement(() => {
			const stmt = this.host.prepare(sql);
			const rows = [...stmt.iterate(...(params ?? []))];
			if (rows.length === 0) return [];
			const columns = columnNames(stmt, rows[0]);
			return [{ columns, values: rows.map((row) => columns.map((c) => normalise(row[c]))) }];
		});
	}

	prepare(sql: string): BuiltinStatement {
		return new BuiltinStatement(this.host.prepare(sql), this.locks);
	}

	export(): Uint8Array {
		throw new Error("the built-in engine opens its index in place; it has no snapshot to export");
	}

	close(): void {
		this.host.close();
		this.onClose();
	}
}

/** The engine object the core receives: a `Database` constructor like sql.js's, plus opening a file in place. */
export interface BuiltinEngine {
	kind: "builtin";
	/** "node:sqlite" or "bun:sqlite". */
	name: string;
	Database: new (bytes?: Uint8Array | null) => Database;
	/** Open `path` in place under `locks`. */
	openFile(path: string, locks: IndexLocks): Database;
}

export function isBuiltinEngine(sql: unknown): sql is BuiltinEngine {
	return (sql as BuiltinEngine | undefined)?.kind === "builtin";
}

function engineOver(name: string, openHost: OpenHost): BuiltinEngine {
	// A snapshot's bytes (omp's history.db, a test's index) go to a private temp file: neither engine reads memory.
	class SnapshotDatabase extends BuiltinDatabase {
		constructor(bytes?: Uint8Array | null) {
			if (!bytes || bytes.length === 0) {
				super(openHost(":memory:"), undefined);
				return;
			}
			const dir = mkdtempSync(join(tmpdir(), "lookback-"));
			const file = join(dir, "snapshot.db");
			writeFileSync(file, bytes);
			super(openHost(file), undefined, () => rmSync(dir, { recursive: true, force: true }));
		}
	}
	return {
		kind: "builtin",
		name,
		Database: SnapshotDatabase as unknown as new (bytes?: Uint8Array | null) => Database,
		openFile(path, locks) {
			// Held SHARED while it opens: opening reads the header and may roll back a dead writer's journal.
			if (!waitShared(locks)) throw busy();
			let host: HostDatabase;
			try {
				host = openHost(path);
				host.exec("PRAGMA busy_timeout = 5000");
				host.exec("PRAGMA cache_spill = OFF");
			} finally {
				locks.release("none");
			}
			return new BuiltinDatabase(host, locks) as unknown as Database;
		},
	};
}

/** node:sqlite's ExperimentalWarning is lookback's business, not the user's. */
async function importQuietly<T>(specifier: string): Promise<T> {
	const emitWarning = process.emitWarning;
	process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
		const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
		if (type === "ExperimentalWarning" && /SQLite/i.test(String(warning))) return;
		return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
	}) as typeof process.emitWarning;
	try {
		return (await import(specifier)) as T;
	} finally {
		process.emitWarning = emitWarning;
	}
}

/** The host's built-in SQLite, or undefined when it has none that lookback can use (checked by the caller). */
export async function loadBuiltinEngine(): Promise<BuiltinEngine | undefined> {
	try {
		if (process.versions.bun) {
			const { Database } = await import(/* @vite-ignore */ "bun:sqlite" as string);
			return engineOver("bun:sqlite", (path) => new Database(path, { create: true }) as HostDatabase);
		}
		const [major, minor] = process.versions.node.split(".").map(Number);
		if (major < 22 || (major === 22 && minor < 13)) return undefined;
		const { DatabaseSync } = await importQuietly<{ DatabaseSync: new (path: string) => HostDatabase }>("node:sqlite");
		return engineOver("node:sqlite", (path) => new DatabaseSync(path));
	} catch {
		return undefined;
	}
}
