/**
 * The served index read by HTTP ranges, as a read-only backend of the engine's filesystem (see
 * src/core/store/engine-files.ts). Runs in a Web Worker: SQLite reads synchronously, and only a worker may make a
 * synchronous XMLHttpRequest that returns bytes. Chunks are cached (LRU) and sequential misses fetch more at
 * once (read-ahead doubling), because on a read-optimised copy one query's pages lie mostly in order. What
 * nearly every query reads (the server names those ranges) can be fetched ahead with a few large asynchronous
 * requests at once — before the index opens, or in the background — so a first query waits on few synchronous ones.
 */

import { type EngineFiles, readOnlyFolder, readPages } from "../../src/core/index.js";

export interface RangeFileOptions {
	/** Bytes per request unit; a multiple of the database page size. */
	chunkBytes?: number;
	/** Most bytes one read-ahead request fetches. */
	readAheadBytes?: number;
	cacheBytes?: number;
}

/** Counted transfers, for the page's info line and for tests. */
export interface RangeCounters {
	requests: number;
	bytes: number;
}

/** One synchronous ranged request for bytes [start, end] (inclusive) of the file: the status and the body the server answered. */
export type RangeTransport = (start: number, end: number) => { status: number; body: ArrayBuffer | null };

/** The same, asynchronous: for fetching ahead. */
export type AsyncRangeTransport = (start: number, end: number) => Promise<{ status: number; body: ArrayBuffer | null }>;

/** Byte ranges [start, end) worth fetching ahead, most useful first. */
export type ByteRanges = [number, number][];

/** What a prefetch fetched, and whether it has finished (done also when it stopped early). */
export interface PrefetchCounters extends RangeCounters {
	done: boolean;
}

/** How much to fetch ahead, and how: see RangeFile.prefetch. */
export interface FetchAheadOptions {
	budget: number;
	piece?: number;
	parallel?: number;
	transport?: AsyncRangeTransport;
}

/** A worker's synchronous XMLHttpRequest: only a worker may make one that returns bytes. */
function xhrRanges(url: string, etag: string | null): RangeTransport {
	return (start, end) => {
		const xhr = new XMLHttpRequest();
		xhr.open("GET", url, false);
		xhr.responseType = "arraybuffer";
		xhr.setRequestHeader("Range", `bytes=${start}-${end}`);
		// Only a strong validator may make the server refuse a range of another version (a weak one must not be sent).
		if (etag && !etag.startsWith("W/")) xhr.setRequestHeader("If-Range", etag);
		try {
			xhr.send();
		} catch (error) {
			throw fsError("EIO", `the server did not answer (${(error as Error).message})`);
		}
		return { status: xhr.status, body: xhr.response as ArrayBuffer | null };
	};
}

/** The page's fetch, with the same validator. */
function fetchRanges(url: string, etag: string | null): AsyncRangeTransport {
	return async (start, end) => {
		const headers: Record<string, string> = { Range: `bytes=${start}-${end}` };
		if (etag && !etag.startsWith("W/")) headers["If-Range"] = etag;
		const response = await fetch(url, { headers, cache: "no-store" });
		return { status: response.status, body: await response.arrayBuffer() };
	};
}

/** The ranges a server names in `X-Lookback-Prefetch` ("start-end" pairs, inclusive as in Range, comma-separated); none when absent or malformed. */
export function prefetchRanges(header: string | null, size: number): ByteRanges {
	const ranges: ByteRanges = [];
	for (const part of (header ?? "").split(",")) {
		const m = /^\s*(\d+)-(\d+)\s*$/.exec(part);
		if (!m) continue;
		const start = Number(m[1]);
		const end = Math.min(Number(m[2]) + 1, size);
		if (end > start) ranges.push([start, end]);
	}
	return ranges;
}

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

/** One file on an HTTP server that honours Range, read in chunks. */
export class RangeFile {
	readonly chunk: number;
	private readonly maxRun: number;
	private readonly maxChunks: number;
	private readonly cache = new Map<number, Uint8Array>();
	private lastMiss = -2;
	private run = 1;
	/** Set when the server answered with another version of the file: the caller opens it again. */
	changed = false;
	readonly counters: RangeCounters = { requests: 0, bytes: 0 };
	/** What was fetched ahead, before the index opened and in the background (not in `counters`); done when the background's is. */
	readonly prefetched: PrefetchCounters = { requests: 0, bytes: 0, done: false };

	constructor(
		readonly url: string,
		readonly size: number,
		readonly etag: string | null,
		options: RangeFileOptions = {},
		private readonly transport: RangeTransport = xhrRanges(url, etag),
	) {
		this.chunk = options.chunkBytes ?? 16384;
		this.maxRun = Math.max(1, Math.floor((options.readAheadBytes ?? 262144) / this.chunk));
		this.maxChunks = Math.max(4, Math.floor((options.cacheBytes ?? 32 << 20) / this.chunk));
	}

	private fetchChunks(first: number, count: number): void {
		const start = first * this.chunk;
		const end = Math.min(this.size, (first + count) * this.chunk) - 1;
		const { status, body } = this.transport(start, end);
		this.counters.requests++;
		this.counters.bytes += body?.byteLength ?? 0;
		if (status === 200) {
			this.changed = true;
			throw fsError("EIO", "the served index changed");
		}
		if (status !== 206 || !body || body.byteLength !== end - start + 1) throw fsError("EIO", `range ${start}-${end}: status ${status}`);
		for (let i = 0; i * this.chunk < body.byteLength; i++) {
			this.put(first + i, new Uint8Array(body, i * this.chunk, Math.min(this.chunk, body.byteLength - i * this.chunk)));
		}
	}

	/**
	 * Fetch `ranges` into the cache in the background: each from its end (an index's newest rows sit there), at
	 * most `budget` bytes in all (and never more than half the cache), `piece` bytes a request, `parallel`
	 * requests at a time. Chunks held already are not fetched again; a file changed on the server stops it.
	 */
	async prefetch(ranges: ByteRanges, options: FetchAheadOptions): Promise<void> {
		try {
			await this.fetchAhead(ranges, options);
		} finally {
			this.prefetched.done = true;
		}
	}

	/** The same, awaited: what SQLite will read first (the roots, the sessions), fetched before it asks. */
	async preload(ranges: ByteRanges, options: FetchAheadOptions): Promise<void> {
		await this.fetchAhead(ranges, options);
	}

	private async fetchAhead(
		ranges: ByteRanges,
		{ budget, piece = 1 << 20, parallel = 3, transport = fetchRanges(this.url, this.etag) }: FetchAheadOptions,
	): Promise<void> {
		const pieces: [number, number][] = [];
		let left = Math.min(budget, (this.maxChunks * this.chunk) / 2);
		const perPiece = Math.max(1, Math.floor(piece / this.chunk));
		for (const [start, end] of ranges) {
			let last = Math.ceil(Math.min(end, this.size) / this.chunk);
			const first = Math.max(Math.floor(start / this.chunk), last - Math.floor(left / this.chunk));
			left -= (last - first) * this.chunk;
			for (; last > first; last -= perPiece) pieces.push([Math.max(first, last - perPiece), last]);
			if (left < this.chunk) break;
		}
		const next = async (): Promise<void> => {
			for (let p = pieces.shift(); p && !this.changed; p = pieces.shift()) {
				let [first, last] = p;
				while (first < last && this.cache.has(first)) first++;
				while (last > first && this.cache.has(last - 1)) last--;
				if (first === last) continue;
				const start = first * this.chunk;
				const end = Math.min(this.size, last * this.chunk) - 1;
				const { status, body } = await transport(start, end);
				this.prefetched.requests++;
				this.prefetched.bytes += body?.byteLength ?? 0;
				if (status !== 206 || !body || body.byteLength !== end - start + 1) return; // another version of the file, or no ranges: stop
				for (let i = 0; i * this.chunk < body.byteLength; i++) {
					if (!this.cache.has(first + i))
						this.put(first + i, new Uint8Array(body, i * this.chunk, Math.min(this.chunk, body.byteLength - i * this.chunk)));
				}
			}
		};
		try {
			await Promise.all(Array.from({ length: parallel }, next));
		} catch {
			// A prefetch that fails changes nothing: the queries read what they need themselves.
		}
	}

	private put(i: number, bytes: Uint8Array): void {
		this.cache.set(i, bytes);
		if (this.cache.size > this.maxChunks) this.cache.delete(this.cache.keys().next().value!);
	}

	private get(i: number): Uint8Array {
		const hit = this.cache.get(i);
		if (hit) {
			this.cache.delete(i);
			this.cache.set(i, hit);
			return hit;
		}
		this.run = i === this.lastMiss + 1 ? Math.min(this.run * 2, this.maxRun) : 1;
		let n = 1;
		while (n < this.run && !this.cache.has(i + n) && (i + n) * this.chunk < this.size) n++;
		this.fetchChunks(i, n);
		this.lastMiss = i + n - 1;
		return this.cache.get(i)!;
	}

	read(into: Uint8Array, offset: number, length: number, position: number): number {
		return readPages(into, offset, length, position, this.size, this.chunk, (i) => this.get(i));
	}
}

/** A folder holding one read-only file `name` (core's read-only-file.ts). */
export function rangeFiles(name: string, file: RangeFile): EngineFiles {
	return readOnlyFolder(name, file, "the served index is read-only");
}
