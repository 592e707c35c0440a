/** The index in a browser: one IndexedDB value (via idb-keyval), replaced in one put. */

import { createStore, del, get, set, type UseStore } from "idb-keyval";
import type { SnapshotStorage } from "../../src/core/index.js";

/** Storage of the index under `key` in an IndexedDB store (default database "lookback", store "index"). */
export function idbStorage(key = "index.db", store: UseStore = createStore("lookback", "index")): SnapshotStorage {
	return {
		describe: () => `IndexedDB lookback/index/${key}`,
		async load() {
			const value = await get<Uint8Array | ArrayBuffer>(key, store);
			if (value === undefined) return null;
			return value instanceof Uint8Array ? value : new Uint8Array(value);
		},
		async save(bytes) {
			// One put is atomic in IndexedDB: a reader gets the old value or the new one.
			await set(key, bytes, store);
		},
		async setAside() {
			const value = await get(key, store);
			if (value === undefined) return undefined;
			const aside = `${key}.unusable-${new Date().toISOString()}`;
			await set(aside, value, store);
			await del(key, store);
			return `IndexedDB lookback/index/${aside}`;
		},
	};
}
