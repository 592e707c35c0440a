/**
 * Where the index lives. Two kinds: a snapshot storage holds the whole database as bytes, loaded whole and
 * saved whole (IndexedDB, memory); an in-place storage opens the database file where it lies, reads pages
 * on demand and commits each transaction to it (files on Node and Bun). The adapters live outside core.
 */

import type { Database, SqlJsStatic } from "./engine.js";

export interface SnapshotStorage {
	/** The saved index, or null when there is none yet. */
	load(): Promise<Uint8Array | null>;
	/** Replace the saved index in one step: a reader sees the old bytes or the new, never a mix. */
	save(bytes: Uint8Array): Promise<void>;
	/** Where the index is, for messages. */
	describe(): string;
	/** Move an unusable index out of the way (kept, not deleted); returns where it went. */
	setAside?(reason: string): Promise<string | undefined>;
}

export interface InPlaceStorage {
	/** Where the index is, for messages. */
	describe(): string;
	/**
	 * A copy handed out to read (the browser over `lookback serve`): never written, so a problem with it is an
	 * error for the reader instead of a reason to set it aside and rebuild.
	 */
	readOnly?: boolean;
	/**
	 * Open the stored database in place (created when missing). Every committed transaction is durable and
	 * seen by the next transaction of every other process; the storage's locks keep them from colliding.
	 */
	open(sql: SqlJsStatic): Database;
	/** Whether the file was replaced since it was opened (it is then opened again). */
	replaced(): boolean;
	/** Whether an error means another process holds the lock a statement needed, so that it can be retried. */
	isBusy(error: unknown): boolean;
	/** Move an unusable index out of the way (kept, not deleted), the database closed; returns where it went. */
	setAside(reason: string): Promise<string | undefined>;
}

export type IndexStorage = SnapshotStorage | InPlaceStorage;

export function isInPlace(storage: IndexStorage): storage is InPlaceStorage {
	return typeof (storage as InPlaceStorage).open === "function";
}

/** An index held in memory only. */
export function memoryStorage(initial: Uint8Array | null = null): SnapshotStorage & { bytes: Uint8Array | null; saves: number } {
	const store = {
		bytes: initial,
		saves: 0,
		async load() {
			return store.bytes;
		},
		async save(bytes: Uint8Array) {
			store.bytes = bytes.slice();
			store.saves++;
		},
		describe: () => "memory",
		async setAside() {
			store.bytes = null;
			return undefined;
		},
	};
	return store;
}
