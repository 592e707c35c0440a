/**
 * Transactions that wait their turn. Several processes share an index opened in place: a writer that finds
 * another one committing gets "busy" and tries again after a short, growing, jittered pause; readers wait
 * inside the storage's locks. On a snapshot storage nothing is ever busy.
 */

import { DEFAULTS } from "../defaults.js";
import { LookbackError } from "../errors.js";
import type { Database } from "./engine.js";

export interface Transactions {
	/** Start a write transaction (BEGIN IMMEDIATE: the write lock is taken now, not at the first write). */
	beginWrite(db: Database): Promise<void>;
	/** Commit, retrying while readers still hold the file. */
	commit(db: Database): Promise<void>;
	/** Undo the open write transaction, if any. */
	rollback(db: Database): void;
	/** Run synchronous reads as one read transaction: one consistent view, one lock taken. */
	read<T>(db: Database, fn: () => T): T;
	isBusy(error: unknown): boolean;
	/** Whether a write transaction is open on this connection. */
	writing(): boolean;
	/** Run one statement outside a transaction, a lock that could not be had reported as LookbackError("index-busy"). */
	attempt<T>(fn: () => T): T;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function transactions(isBusy: (error: unknown) => boolean = () => false, waitMs: number = DEFAULTS.writeWaitMs): Transactions {
	/** Whether this connection is inside a write transaction (reads then run inside it). */
	let writing = false;
	const retry = async (db: Database, sql: string) => {
		const deadline = Date.now() + waitMs;
		let pause = 2;
		for (;;) {
			try {
				db.run(sql);
				return;
			} catch (error) {
				if (!isBusy(error)) throw error;
				if (Date.now() >= deadline) throw indexBusyError(error);
				await sleep(pause + Math.random() * pause);
				pause = Math.min(pause * 2, 50);
			}
		}
	};
	return {
		isBusy,
		writing: () => writing,
		attempt(fn) {
			try {
				return fn();
			} catch (error) {
				throw isBusy(error) ? indexBusyError(error) : error;
			}
		},
		async beginWrite(db) {
			await retry(db, "BEGIN IMMEDIATE");
			writing = true;
		},
		async commit(db) {
			await retry(db, "COMMIT");
			writing = false;
		},
		rollback(db) {
			writing = false;
			try {
				db.run("ROLLBACK");
			} catch {
				// SQLite already rolled back after the error
			}
		},
		read(db, fn) {
			if (writing) return fn();
			try {
				db.run("BEGIN");
				const result = fn();
				db.run("COMMIT");
				return result;
			} catch (error) {
				try {
					db.run("ROLLBACK");
				} catch {
					// no transaction left to end
				}
				throw isBusy(error) ? indexBusyError(error) : error;
			}
		},
	};
}

/** The error of a lock that could not be had in time, for every place that waits for one. */
export function indexBusyError(cause?: unknown): LookbackError {
	return new LookbackError("index-busy", "the index is busy: another process kept it locked for too long; try again", { cause });
}
