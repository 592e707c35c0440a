/**
 * The served index read by HTTP ranges, as a read-only backend of the engine's filesystem (see
 * src/core/store/engine-files.ts). Runs in a Web Worker: SQLite reads synchronously, and only a worker may make a
 * synchronous XMLHttpRequest that returns bytes. Chunks are cached (LRU) and sequential misses fetch more at
 * once (read-ahead doubling), because on a read-optimised copy one query's pages lie mostly in order.
 */

import type { EngineFiles } from "../../src/core/index.js";

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

	constructor(
		readonly url: string,
		readonly size: number,
		readonly etag: string | null,
		options: RangeFileOptions = {},
	) {
		this.chunk = options.chunkBytes ?? 16384;
		this.maxRun = Math.max(1, Math.floor((options.readAheadBytes ?? 262144) / this.chunk));
		this.maxChunks = Math.max(4, Math.floor((options.cacheBytes ?? 32 << 20) / this.chunk));
	}

	private fetchChunks(first: number, count: number): void {
		const start = first * this.chunk;
		const end = Math.min(this.size, (first + count) * this.chunk) - 1;
		const xhr = new XMLHttpRequest();
		xhr.open("GET", this.url, false);
		xhr.responseType = "arraybuffer";
		xhr.setRequestHeader("Range", `bytes=${start}-${end}`);
		// Only a strong validator may make the server refuse a range of another version (a weak one must not be sent).
		if (this.etag && !this.etag.startsWith("W/")) xhr.setRequestHeader("If-Range", this.etag);
		try {
			xhr.send();
		} catch (error) {
			throw fsError("EIO", `the server did not answer (${(error as Error).message})`);
		}
		this.counters.requests++;
		const body = xhr.response as ArrayBuffer | null;
		this.counters.bytes += body?.byteLength ?? 0;
		if (xhr.status === 200) {
			this.changed = true;
			throw fsError("EIO", "the served index changed");
		}
		if (xhr.status !== 206 || !body || body.byteLength !== end - start + 1)
			throw fsError("EIO", `range ${start}-${end}: status ${xhr.status}`);
		for (let i = 0; i * this.chunk < body.byteLength; i++) {
			this.put(first + i, new Uint8Array(body, i * this.chunk, Math.min(this.chunk, body.byteLength - i * this.chunk)));
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
		if (position >= this.size) return 0;
		const total = Math.min(length, this.size - position);
		let done = 0;
		while (done < total) {
			const at = position + done;
			const i = Math.floor(at / this.chunk);
			const chunk = this.get(i);
			const from = at - i * this.chunk;
			const n = Math.min(total - done, chunk.length - from);
			into.set(chunk.subarray(from, from + n), offset + done);
			done += n;
		}
		return done;
	}
}

/** A folder holding one read-only file `name`: writes are refused (SQLite then opens it read-only), a journal never exists. */
export function rangeFiles(name: string, file: RangeFile): EngineFiles {
	const refuse = () => {
		throw fsError("EACCES", "the served index is read-only");
	};
	return {
		stat(n) {
			if (n === "") return { size: 0, ino: 1, mtimeMs: 0, isDirectory: true };
			return n === name ? { size: file.size, ino: 2, mtimeMs: 0, isDirectory: false } : undefined;
		},
		open(n, mode) {
			if (mode.write) refuse();
			if (n !== "" && n !== name) throw fsError("ENOENT", n);
			return 1;
		},
		close: () => undefined,
		read: (_handle, into, offset, length, position) => file.read(into, offset, length, position),
		write: refuse,
		size: () => file.size,
		truncate: refuse,
		sync: () => undefined,
		create: refuse,
		unlink: refuse,
	};
}
