/**
 * Opens the index `lookback serve` (or any static server) hands out. Probes Range support with an async
 * request first: a synchronous request cannot be aborted, so a server that ignores Range would push the whole
 * file through it. A large index is then read page by page; a small one, or one from a server without Range,
 * is fetched whole and kept in IndexedDB, so that the page still opens it when the server is gone.
 */

import { createStore, get, set } from "idb-keyval";
import { type FilesEngine, LookbackError, LookbackIndex, mountEngineFiles } from "../../src/core/index.js";
import type { IndexInfo } from "./protocol.js";
import { prefetchRanges, RangeFile, rangeFiles } from "./range-files.js";
import { readOnlyStorage } from "./read-only-storage.js";
import { openWholeCopy } from "./whole-copy.js";

/** Below this size the index is fetched whole: one request, then offline use. */
const WHOLE_BELOW_BYTES = 64 << 20;
/** Chunks of the ranged file kept in the worker. */
const CACHE_BYTES = 48 << 20;
/**
 * Bytes fetched ahead, in the background, of what nearly every query reads (the server names those parts): at
 * 500 MB of sessions, all of them; beyond, the newest of them.
 */
const PREFETCH_BYTES = 16 << 20;
/**
 * Bytes fetched before the index opens, of what opening and any first view read (the server names those parts:
 * every table's root, the sessions and their usage sums; 3 MB at 500 MB of sessions). Fetched a few large
 * requests at once, where SQLite would read them a synchronous request at a time (measured at 500 MB: 7 requests
 * one after another to open the index, 3 more for the usage dashboard's figures).
 */
const OPEN_BYTES = 6 << 20;

interface KeptCopy {
	url: string;
	etag: string | null;
	fetchedAt: string;
	bytes: Uint8Array;
}

export interface ServedIndex {
	index: LookbackIndex;
	info: IndexInfo;
	/** The ranged file, when paged. */
	file?: RangeFile;
	/**
	 * Start fetching ahead, in the background, what nearly every query reads (paged; once, later calls do nothing):
	 * for the page to call once a first list is painted, whose own reads and drawing it would otherwise compete with.
	 */
	prefetch?(): void;
}

const copies = () => createStore("lookback-viewer", "served");
let opened = 0;

/** Nothing is served beside the page (a static host, `lookback serve` before an index exists, a server gone): the page keeps its own index. */
export class NoServedIndex extends LookbackError {
	constructor(
		message: string,
		/** No server answered at all (the page came from the service worker's copy). */
		readonly unreachable = false,
	) {
		super("io", message);
	}
}

async function keptCopy(url: string): Promise<KeptCopy | undefined> {
	try {
		const kept = await get<KeptCopy>("index.db", copies());
		return kept?.url === url ? kept : undefined;
	} catch {
		return undefined; // no IndexedDB (private mode): nothing kept
	}
}

async function keep(copy: KeptCopy): Promise<void> {
	try {
		await set("index.db", copy, copies());
	} catch {
		// no IndexedDB: the page works, only not offline
	}
}

async function openWhole(engine: FilesEngine, bytes: Uint8Array, description: string): Promise<LookbackIndex> {
	return (await openWholeCopy(engine, bytes, description)).index;
}

function withInfo(index: LookbackIndex, info: Omit<IndexInfo, "sessions" | "messages" | "lastSync">): IndexInfo {
	return { ...info, ...index.overview() };
}

async function problemOf(response: Response): Promise<string> {
	const text = (await response.text().catch(() => "")).trim();
	return `the server has no index for the page (${response.status}${text ? `: ${text}` : ""})`;
}

/**
 * Open the index served at `url`. The engine may still be loading: the probe of the server, and what the page reads
 * before it opens the index, are fetched meanwhile (a page opening on a 2 vCPU machine waits ~0.1 s for the engine).
 */
export async function openServed(
	loading: FilesEngine | PromiseLike<FilesEngine>,
	url: string,
	mode?: "paged" | "whole",
): Promise<ServedIndex> {
	const abort = new AbortController();
	let probe: Response;
	try {
		probe = await fetch(url, { headers: { Range: "bytes=0-99" }, cache: "no-store", signal: abort.signal });
	} catch {
		const kept = await keptCopy(url);
		if (!kept) throw new NoServedIndex("the server does not answer, and no copy of its index was kept in this browser", true);
		const index = await openWhole(await loading, kept.bytes, `the copy of ${url} kept in this browser`);
		return { index, info: withInfo(index, { mode: "offline", bytes: kept.bytes.length, etag: kept.etag, fetchedAt: kept.fetchedAt }) };
	}
	// A static host answers 404 for a missing file, or its index.html for any path.
	if (probe.status === 404 || probe.headers.get("content-type")?.startsWith("text/html")) throw new NoServedIndex(await problemOf(probe));
	if (probe.status !== 206 && probe.status !== 200) throw new LookbackError("io", await problemOf(probe));
	const etag = probe.headers.get("ETag");
	const size = Number(probe.headers.get("Content-Range")?.split("/")[1] ?? Number.NaN);
	const head = probe.status === 206 ? new Uint8Array(await probe.arrayBuffer()) : undefined;
	abort.abort(); // a server that ignores Range is sending the whole file: stop it, and fetch it deliberately below
	const paged = head !== undefined && Number.isFinite(size) && (mode === "paged" || (mode !== "whole" && size >= WHOLE_BELOW_BYTES));
	if (paged) {
		const pageSize = head.length >= 18 ? (head[16] << 8) | head[17] : 0;
		const page = pageSize === 1 ? 65536 : pageSize;
		const file = new RangeFile(url, size, etag, { chunkBytes: Math.max(16384, page), cacheBytes: CACHE_BYTES });
		// Meanwhile the engine may still be loading.
		await file.preload(prefetchRanges(probe.headers.get("x-lookback-open"), size), { budget: OPEN_BYTES, parallel: 4 });
		const engine = await loading;
		let prefetching = false;
		const prefetch = () => {
			if (prefetching) return;
			prefetching = true;
			// Not awaited: it runs while the person reads the first view; a query that comes sooner reads what it needs itself.
			void file.prefetch(prefetchRanges(probe.headers.get("x-lookback-prefetch"), size), { budget: PREFETCH_BYTES });
		};
		const mountpoint = mountEngineFiles(engine.FS, rangeFiles("index.db", file), `served${++opened}`, {
			reads: 0,
			bytesRead: 0,
			writes: 0,
			fsyncs: 0,
		});
		const index = await LookbackIndex.open({ sql: engine, storage: readOnlyStorage(engine, `${mountpoint}/index.db`, url) });
		return { index, file, prefetch, info: withInfo(index, { mode: "paged", bytes: size, etag }) };
	}
	const engine = await loading;
	const kept = await keptCopy(url);
	let bytes: Uint8Array;
	if (kept && etag && !etag.startsWith("W/") && kept.etag === etag) bytes = kept.bytes;
	else {
		const whole = await fetch(url, { cache: "no-store" });
		if (!whole.ok) throw new LookbackError("io", await problemOf(whole));
		bytes = new Uint8Array(await whole.arrayBuffer());
		await keep({ url, etag: whole.headers.get("ETag"), fetchedAt: new Date().toISOString(), bytes });
	}
	const index = await openWhole(engine, bytes, url);
	return { index, info: withInfo(index, { mode: "whole", bytes: bytes.length, etag }) };
}
