/**
 * A team's bucket opened for reading: its listing and every shard's manifest read (in parallel, asynchronously),
 * each shard opened in one of a few worker threads (remote-worker.ts) and read by ranges of its packs, and a call
 * fanned out over every shard, each answering or failing on its own (merge.ts joins the answers). The parent thread
 * only fetches what the workers ask for (light work: a host's event loop stays free), and counts it.
 *
 * Kept open by a long-lived host (`lookback mcp`, `serve --remote`), its workers keep each shard's pages (a warm
 * query), and the manifests are read again at most every `REFRESH_MS`: a shard published since is opened anew.
 */

import { Worker } from "node:worker_threads";
import { errorMessage, LookbackError } from "../../core/errors.js";
import type { FannedOut, ShardProblem } from "../../core/team/merge.js";
import { manifestKey, parseManifest, parseTeam, type ShardManifest, TEAM_KEY } from "../../core/team/shard-format.js";
import { builtFile } from "../built-files.js";
import type { Env } from "../home.js";
import type { FromWorker, ToWorker } from "./remote-worker.js";
import { HEADER_BYTES } from "./remote-worker.js";
import { type ObjectStore, storeOf } from "./store.js";

/**
 * Worker threads a team is read with, at most: each holds its engine and its shards' page caches (8 MB each). A
 * worker mostly waits on its fetches, and a shard's requests follow one another, so more workers, more shards read
 * side by side: the shards a worker holds multiply a cold query's time (docs/team.md, "Scale").
 */
const MAX_WORKERS = Number(process.env.LOOKBACK_REMOTE_WORKERS) || 16;
/** A long-lived host reads the manifests again after this long, before its next call. */
const REFRESH_MS = 30_000;

/** Requests and bytes fetched, for the bench and `--json` replies. */
export interface TransferCounters {
	requests: number;
	bytes: number;
}

interface ShardSlot {
	name: string;
	manifest: ShardManifest;
	worker: number;
	opened: Promise<void>;
}

function workerFile(): string | URL {
	const built = builtFile("remote-worker.js");
	if (built) return built;
	if ((process.versions as { bun?: string }).bun) return new URL("../../remote-worker.ts", import.meta.url);
	throw new LookbackError("io", "reading a remote team needs dist/remote-worker.js: run npm run build (or npm ci) in lookback's folder");
}

export class RemoteTeam {
	readonly counters: TransferCounters = { requests: 0, bytes: 0 };
	private readonly workers: Worker[] = [];
	private readonly shards = new Map<string, ShardSlot>();
	/** Shards named by the listing whose manifest could not be read. */
	private listingProblems: ShardProblem[] = [];
	private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
	private nextId = 0;
	private readAt = 0;
	private refreshing?: Promise<void>;

	private constructor(
		readonly url: string,
		private readonly store: ObjectStore,
	) {}

	/** Open a team: `url` names its bucket and prefix (`s3://…`, `file:///…`, `https://…`). Fails only when the listing cannot be read. */
	static async open(url: string, env: Env = process.env): Promise<RemoteTeam> {
		const team = new RemoteTeam(url, storeOf(url, env));
		await team.refresh();
		return team;
	}

	get describe(): string {
		return this.store.describe;
	}

	/** The shards open, with their manifests. */
	list(): { name: string; manifest: ShardManifest }[] {
		return [...this.shards.values()].map(({ name, manifest }) => ({ name, manifest }));
	}

	private async counted<T>(run: () => Promise<T>, bytes: (value: T) => number): Promise<T> {
		const value = await run();
		this.counters.requests++;
		this.counters.bytes += bytes(value);
		return value;
	}

	/** Read the listing and the manifests again; open the shards that are new or were published since. */
	private async refresh(): Promise<void> {
		const listingBytes = await this.counted(
			() => this.store.get(TEAM_KEY),
			(b) => b?.length ?? 0,
		);
		if (!listingBytes) throw new LookbackError("remote", `${this.store.describe} has no ${TEAM_KEY}: nothing was published there yet`);
		const names = parseTeam(listingBytes, `${this.store.describe}/${TEAM_KEY}`).shards;
		const problems: ShardProblem[] = [];
		const manifests = await Promise.all(
			names.map(async (name) => {
				try {
					const bytes = await this.counted(
						() => this.store.get(manifestKey(name)),
						(b) => b?.length ?? 0,
					);
					if (!bytes) throw new LookbackError("remote", `${this.store.describe}/${manifestKey(name)} is missing`);
					return { name, manifest: parseManifest(bytes, `${this.store.describe}/${manifestKey(name)}`) };
				} catch (error) {
					problems.push({ shard: name, error: errorMessage(error).replace(/^lookback: /, "") });
					return undefined;
				}
			}),
		);
		this.listingProblems = problems;
		const found = manifests.filter((m): m is { name: string; manifest: ShardManifest } => m !== undefined);
		const count = Math.min(MAX_WORKERS, Math.max(1, found.length));
		while (this.workers.length < count) this.startWorker();
		for (const [name] of this.shards) if (!names.includes(name)) this.shards.delete(name);
		for (const { name, manifest } of found) {
			const slot = this.shards.get(name);
			if (slot && slot.manifest.generation === manifest.generation && slot.manifest.publishedAt === manifest.publishedAt) continue;
			const worker = slot?.worker ?? this.shards.size % this.workers.length;
			const opened = this.send(worker, { type: "open", id: 0, shard: name, store: this.store.describe, manifest }).then(() => undefined);
			opened.catch(() => undefined);
			this.shards.set(name, { name, manifest, worker, opened });
		}
		this.readAt = Date.now();
	}

	private startWorker(): void {
		const worker = new Worker(workerFile());
		worker.unref();
		worker.on("message", (message: FromWorker) => {
			if (message.type === "fetch") void this.fetchFor(message);
			else {
				const waiting = this.pending.get(message.id);
				this.pending.delete(message.id);
				if (!waiting) return;
				if (message.error !== undefined) waiting.reject(Object.assign(new Error(message.error), { code: message.code }));
				else waiting.resolve(message.value);
			}
		});
		worker.on("error", (error) => {
			for (const [id, waiting] of this.pending) {
				waiting.reject(error);
				this.pending.delete(id);
			}
		});
		this.workers.push(worker);
	}

	/** A worker's read: the ranges fetched side by side, put in its shared buffer, and the worker woken. */
	private async fetchFor(message: Extract<FromWorker, { type: "fetch" }>): Promise<void> {
		const control = new Int32Array(message.sab, 0, 4);
		try {
			const bodies = await Promise.all(message.parts.map((p) => this.store.getRange(p.key, p.start, p.end)));
			let at = HEADER_BYTES;
			const into = new Uint8Array(message.sab);
			for (const body of bodies) {
				into.set(body, at);
				at += body.length;
				this.counters.bytes += body.length;
			}
			this.counters.requests += bodies.length;
			control[1] = 0;
		} catch (error) {
			const text = new TextEncoder().encode(errorMessage(error).slice(0, 900));
			new Uint8Array(message.sab).set(text.subarray(0, message.sab.byteLength - HEADER_BYTES), HEADER_BYTES);
			control[1] = 1;
			control[2] = Math.min(text.length, message.sab.byteLength - HEADER_BYTES);
		}
		Atomics.store(control, 0, 1);
		Atomics.notify(control, 0);
	}

	private send(worker: number, message: ToWorker): Promise<unknown> {
		const id = ++this.nextId;
		const w = this.workers[worker];
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			w.ref();
			w.postMessage({ ...message, id });
		}).finally(() => {
			if (this.pending.size === 0) for (const each of this.workers) each.unref();
		});
	}

	/** A call of one shard. */
	async call<T>(shard: string, method: string, args: unknown[]): Promise<T> {
		const slot = this.shards.get(shard);
		if (!slot) throw new LookbackError("remote", `no shard ${shard} in ${this.store.describe}`);
		await slot.opened;
		return (await this.send(slot.worker, { type: "call", id: 0, shard, method, args })) as T;
	}

	/** A call of every shard (or of those named), each answering or failing alone. */
	async fanOut<T>(method: string, args: unknown[], only?: (shard: string) => boolean): Promise<FannedOut<T>> {
		if (Date.now() - this.readAt > REFRESH_MS) {
			this.refreshing ??= this.refresh()
				.catch(() => undefined)
				.finally(() => (this.refreshing = undefined));
			await this.refreshing;
		}
		const problems: ShardProblem[] = [...this.listingProblems];
		const answers: { shard: string; value: T }[] = [];
		await Promise.all(
			[...this.shards.values()]
				.filter((slot) => !only || only(slot.name))
				.map(async (slot) => {
					try {
						await slot.opened;
						answers.push({
							shard: slot.name,
							value: (await this.send(slot.worker, { type: "call", id: 0, shard: slot.name, method, args })) as T,
						});
					} catch (error) {
						const code = (error as { code?: string }).code;
						if (code === "session-not-found") return;
						problems.push({ shard: slot.name, error: errorMessage(error).replace(/^lookback: /, "") });
					}
				}),
		);
		const order = [...this.shards.keys()];
		answers.sort((a, b) => order.indexOf(a.shard) - order.indexOf(b.shard));
		problems.sort((a, b) => a.shard.localeCompare(b.shard));
		return { answers, problems };
	}

	async close(): Promise<void> {
		await Promise.all(this.workers.map((w) => w.terminate()));
		this.workers.length = 0;
	}
}
