/**
 * A shard's SQLite file read through its manifest, as a read-only backend of the engine's filesystem (see
 * ../store/engine-files.ts), over packs: what web/src/range-files.ts does for one file. SQLite reads synchronously,
 * so the bytes come from a synchronous fetch (`FetchPages`): in Node a worker thread that waits while its parent
 * fetches (src/node/team/remote-worker.ts), in the viewer's Web Worker a synchronous XMLHttpRequest. Pages are cached (LRU); a run of misses fetches more of the same extent at once
 * (read-ahead doubling up to 256 KiB), as one query's pages of a laid-out shard lie mostly in order.
 */

import type { EngineFiles } from "../store/engine-files.js";
import { readOnlyFolder, readPages } from "../store/read-only-file.js";
import { PageMap, type ShardManifest } from "./shard-format.js";

/** Byte ranges of packs fetched in one go: [pack key, start, end) each; resolves to their bytes, or throws. */
export type FetchPages = (parts: { key: string; start: number; end: number }[]) => Uint8Array[];

/** Most bytes a run of misses fetches at once: 1 MiB read no fewer requests than 256 KiB on the bench's queries, and more bytes. */
const READ_AHEAD_BYTES = 256 << 10;

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

export class ShardFile {
	private readonly map: PageMap;
	private readonly cache = new Map<number, Uint8Array>();
	private readonly maxPages: number;
	private readonly maxRun: number;
	private lastMiss = -2;
	private run = 1;
	/** The last fetch's failure, for the reply: SQLite itself only says "disk I/O error". */
	lastError?: string;

	constructor(
		readonly manifest: ShardManifest,
		private readonly fetchPages: FetchPages,
		cacheBytes = 8 << 20,
	) {
		this.map = new PageMap(manifest);
		this.maxPages = Math.max(8, Math.floor(cacheBytes / manifest.pageBytes));
		this.maxRun = Math.max(1, Math.floor(READ_AHEAD_BYTES / manifest.pageBytes));
	}

	get size(): number {
		return this.manifest.size;
	}

	private fetch(runs: { page: number; count: number }[]): void {
		const parts = runs.map(({ page, count }) => {
			const at = this.map.locate(page);
			return { key: at.pack, start: at.offset, end: at.offset + count * this.manifest.pageBytes };
		});
		let bodies: Uint8Array[];
		try {
			bodies = this.fetchPages(parts);
		} catch (error) {
			this.lastError = (error as Error).message;
			throw fsError("EIO", this.lastError);
		}
		runs.forEach(({ page, count }, r) => {
			for (let i = 0; i < count; i++)
				this.put(page + i, bodies[r].subarray(i * this.manifest.pageBytes, (i + 1) * this.manifest.pageBytes));
		});
	}

	private put(page: number, bytes: Uint8Array): void {
		this.cache.set(page, bytes);
		if (this.cache.size > this.maxPages) this.cache.delete(this.cache.keys().next().value!);
	}

	private page(page: number): Uint8Array {
		const hit = this.cache.get(page);
		if (hit) {
			this.cache.delete(page);
			this.cache.set(page, hit);
			return hit;
		}
		this.run = page === this.lastMiss + 1 ? Math.min(this.run * 2, this.maxRun) : 1;
		const { run: inExtent } = this.map.locate(page);
		let count = 1;
		while (count < Math.min(this.run, inExtent) && !this.cache.has(page + count)) count++;
		this.fetch([{ page, count }]);
		this.lastMiss = page + count - 1;
		return this.cache.get(page)!;
	}

	read(into: Uint8Array, offset: number, length: number, position: number): number {
		return readPages(into, offset, length, position, this.size, this.manifest.pageBytes, (page) => this.page(page));
	}
}

/** A folder holding the one read-only file `name` (read-only-file.ts). */
export function shardFiles(name: string, file: ShardFile): EngineFiles {
	return readOnlyFolder(name, file, "a remote shard is read-only");
}
