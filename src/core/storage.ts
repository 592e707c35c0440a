/** Where the index file lives: load bytes, save bytes, say where. Filesystem and IndexedDB versions live outside core. */

export interface IndexStorage {
	/** The saved index, or null when there is none yet. */
	load(): Promise<Uint8Array | null>;
	/**
	 * Replace the saved index in one step: a reader sees the old bytes or the new, never a mix. A storage that
	 * several processes share throws LookbackError("index-conflict") when another process saved since this one
	 * loaded, so that a newer index is never replaced by an older one.
	 */
	save(bytes: Uint8Array): Promise<void>;
	/** Where the index is, for messages. */
	describe(): string;
	/** Run `fn` with the stored index locked against other processes (storages several processes share). */
	exclusive?<T>(fn: () => Promise<T>): Promise<T>;
	/** Whether another process saved the index since this one loaded it. */
	changedSinceLoad?(): boolean;
	/** Move an unusable index out of the way (kept, not deleted); returns where it went. */
	setAside?(reason: string): Promise<string | undefined>;
}

/** An index held in memory only. */
export function memoryStorage(initial: Uint8Array | null = null): IndexStorage & { bytes: Uint8Array | null; saves: number } {
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
