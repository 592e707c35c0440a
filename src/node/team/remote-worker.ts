/**
 * What a worker thread of a remote team does (entry: src/remote-worker.ts): it holds some of the team's shards open,
 * each a lookback index whose file is read by ranges of its packs (shard-file.ts), and answers the calls the team
 * makes of them (remote-team.ts) with the same library calls a local index answers. SQLite reads synchronously:
 * each read posts the ranges it needs to the parent thread, which fetches them, and waits on a shared buffer until
 * they are there (Atomics.wait) — so a worker's queries block only the worker, never the host's event loop, and
 * the team's shards are read side by side, one worker each or a few.
 */

import { type MessagePort, parentPort } from "node:worker_threads";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import {
	errorMessage,
	type InPlaceStorage,
	LookbackError,
	LookbackIndex,
	mountEngineFiles,
	openAt,
	type ReadRange,
} from "../../core/index.js";
import { browseReply, readPage, readWhole, scroll } from "../../core/replies/index.js";
import { hitContext } from "../../core/replies/messages.js";
import { useDeflater } from "../../core/store/body-codec.js";
import { type FetchPages, ShardFile, shardFiles } from "../../core/team/shard-file.js";
import { packKey, type ShardManifest } from "../../core/team/shard-format.js";
import { loadEngine, type NodeEngine } from "../engine.js";

/** A worker waits this long for its parent's fetch before it gives up on the shard. */
const FETCH_TIMEOUT_MS = 30_000;

export type ToWorker =
	| { type: "open"; id: number; shard: string; store: string; manifest: ShardManifest }
	| { type: "call"; id: number; shard: string; method: string; args: unknown[] }
	| { type: "close"; shard: string };

export type FromWorker =
	| { type: "fetch"; sab: SharedArrayBuffer; store: string; shard: string; parts: { key: string; start: number; end: number }[] }
	| { type: "answer"; id: number; value?: unknown; error?: string; code?: string };

/** A fetch answered in a shared buffer: [state (0 waiting, 1 done), failed, message bytes] then the bytes. */
export const HEADER_BYTES = 16;

function syncFetch(port: MessagePort, store: string, shard: string): FetchPages {
	const decoder = new TextDecoder();
	return (parts) => {
		const total = parts.reduce((n, p) => n + (p.end - p.start), 0);
		const sab = new SharedArrayBuffer(HEADER_BYTES + Math.max(total, 1024));
		const control = new Int32Array(sab, 0, 4);
		port.postMessage({ type: "fetch", sab, store, shard, parts } satisfies FromWorker);
		if (Atomics.wait(control, 0, 0, FETCH_TIMEOUT_MS) === "timed-out")
			throw new Error(`no answer from ${store} in ${FETCH_TIMEOUT_MS / 1000} s`);
		if (control[1] !== 0) throw new Error(decoder.decode(new Uint8Array(sab, HEADER_BYTES, control[2])));
		const out: Uint8Array[] = [];
		let at = HEADER_BYTES;
		for (const p of parts) {
			out.push(new Uint8Array(sab, at, p.end - p.start));
			at += p.end - p.start;
		}
		return out;
	};
}

interface OpenShard {
	index: LookbackIndex;
	file: ShardFile;
	/** A long message's line from the shard's own copy (shard_lines), in place of the session file it has not. */
	readRange: ReadRange;
}

function readOnly(engine: NodeEngine, path: string, description: string): InPlaceStorage {
	return {
		readOnly: true,
		describe: () => description,
		open: () => openAt(engine, path),
		replaced: () => false,
		isBusy: () => false,
		setAside: async () => undefined,
	};
}

let mounts = 0;

async function openShard(port: MessagePort, store: string, name: string, manifest: ShardManifest): Promise<OpenShard> {
	const engine = await loadEngine();
	const file = new ShardFile(
		manifest,
		(() => {
			const fetchPages = syncFetch(port, store, name);
			return (parts) => fetchPages(parts.map((p) => ({ ...p, key: packKey(name, p.key) })));
		})(),
	);
	// Nothing is fetched ahead of SQLite: a laid-out shard's roots alone are 28 pages (1.8 MB), and fetching them with
	// what opening reads saved 24 of a rare word's 86 requests over 5 shards but cost 13.6 MB where it read 5.7 (README).
	const mountpoint = mountEngineFiles(engine.FS, shardFiles("index.db", file), `remote${++mounts}`, {
		reads: 0,
		bytesRead: 0,
		writes: 0,
		fsyncs: 0,
	});
	let index: LookbackIndex;
	try {
		index = await LookbackIndex.open({ sql: engine, storage: readOnly(engine, `${mountpoint}/index.db`, `${store} shard ${name}`) });
	} catch (error) {
		throw new LookbackError("remote", file.lastError ?? errorMessage(error).replace(/^lookback: /, ""));
	}
	const readRange: ReadRange = (path, start) => {
		const row = index.db.exec("SELECT line FROM shard_lines WHERE path = ? AND off = ?", [path, start])[0]?.values[0]?.[0];
		return row instanceof Uint8Array ? inflateRawSync(row) : undefined;
	};
	return { index, file, readRange };
}

type Call = (shard: OpenShard, args: unknown[]) => unknown;

const CALLS: Record<string, Call> = {
	search: ({ index, readRange }, [request]) =>
		index.search({ ...(request as object), readRange } as Parameters<LookbackIndex["search"]>[0]),
	read: ({ index, readRange }, [ref, options, full]) =>
		index.read(ref as string, { ...(options as object), ...(full ? { wholeText: readRange } : {}) }),
	browse: ({ index }, [options]) => index.browse(options as Parameters<LookbackIndex["browse"]>[0]),
	usage: ({ index }, [request]) => index.usage(request as Parameters<LookbackIndex["usage"]>[0]),
	dashboard: ({ index }, [request]) => index.dashboard(request as Parameters<LookbackIndex["dashboard"]>[0]),
	overview: ({ index }) => index.overview(),
	// The tools' replies (the MCP server's and the Pi tool's, remote-replies.ts), over the shard's own lines.
	context: ({ index, readRange }, [hit]) => hitContext(index, hit as { path: string; entryId: string }, { readRange }),
	readWhole: ({ index, readRange }, [ref, options]) => readWhole(index, ref as string, { ...(options as object), readRange }),
	scroll: ({ index, readRange }, [ref, options]) =>
		scroll(index, ref as string, { ...(options as Parameters<typeof scroll>[2]), readRange }),
	readPage: ({ index, readRange }, [ref, options]) => readPage(index, ref as string, { ...(options as object), readRange }),
	browseReply: ({ index }, [options]) => browseReply(index, options as Parameters<typeof browseReply>[1]),
};

export function runRemoteWorker(): void {
	const port = parentPort;
	if (!port) throw new Error("lookback: remote-worker runs in a worker thread");
	useDeflater({ deflate: (d) => deflateRawSync(d, { level: 6 }), inflate: (d) => inflateRawSync(d) });
	const shards = new Map<string, Promise<OpenShard>>();
	const answer = (id: number, run: () => unknown) => {
		Promise.resolve()
			.then(run)
			.then(
				(value) => port.postMessage({ type: "answer", id, value } satisfies FromWorker),
				(error: unknown) =>
					port.postMessage({
						type: "answer",
						id,
						error: errorMessage(error),
						code: error instanceof LookbackError ? error.code : undefined,
					} satisfies FromWorker),
			);
	};
	port.on("message", (message: ToWorker) => {
		switch (message.type) {
			case "open": {
				const opening = openShard(port, message.store, message.shard, message.manifest);
				opening.catch(() => shards.delete(message.shard));
				shards.get(message.shard)?.then(
					(s) => s.index.close(),
					() => undefined,
				);
				shards.set(message.shard, opening);
				answer(message.id, async () => {
					await opening;
					return true;
				});
				break;
			}
			case "call":
				answer(message.id, async () => {
					const shard = await shards.get(message.shard);
					if (!shard) throw new LookbackError("remote", `shard ${message.shard} is not open`);
					const call = CALLS[message.method];
					if (!call) throw new Error(`lookback: no call "${message.method}"`);
					try {
						return call(shard, message.args);
					} catch (error) {
						// SQLite says "disk I/O error" for a fetch that failed: the fetch's own words say more.
						if (shard.file.lastError && !(error instanceof LookbackError && error.code !== "io")) {
							const cause = shard.file.lastError;
							shard.file.lastError = undefined;
							throw new LookbackError("remote", cause.replace(/^lookback: /, ""));
						}
						throw error;
					}
				});
				break;
			case "close":
				shards.get(message.shard)?.then(
					(s) => s.index.close(),
					() => undefined,
				);
				shards.delete(message.shard);
				break;
		}
	});
}
