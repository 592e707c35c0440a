/**
 * The indexer of a long-lived host (the Pi and omp extension, `lookback serve`, `lookback mcp`): a child
 * process (src/indexer.ts) that parses, indexes and commits, so that the host's event loop only reads and
 * awaits results. One per host process, started on first use; it is detached and holds nothing of the host
 * open, so the host exits as it would without it, while a sync it started — a first index — goes on to its end.
 *
 * Which file the child runs: `dist/indexer.js` (built by `npm run build`, by `prepack` into the package, and
 * by `prepare` in a clone after `npm ci`; built-files.ts finds it and refuses one older than the sources); Bun
 * runs the TypeScript source itself where no build is there. Where neither can run (Node with the sources
 * only), the same work runs in the host's process, in batches of about half a second (`DEFAULTS.syncBatchMs`).
 */

import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LookbackError } from "../core/errors.js";
import type { SyncReport, WalkedFolders } from "../core/index.js";
import { builtFile } from "./built-files.js";
import { importOnce } from "./import-once.js";
import { indexPathOf } from "./index-path.js";
import { FIRST_MESSAGES_ENV, type FromIndexer, firstMessagesValue, type ToIndexer, type WalkSeen } from "./indexer-messages.js";
import { type IndexingProgress, indexComplete } from "./indexer-slot.js";
import type { IndexerCall } from "./indexer-work.js";
import type { NodeIndexOptions } from "./open.js";
import type { SnapshotReads } from "./snapshot-layout.js";

export type IndexerPlace = "child process" | "host process";

export interface IndexerHooks {
	/** Each word of progress of a running sync; `elsewhere` when another process runs it and this one follows. */
	onProgress?: (progress: IndexingProgress, elsewhere: boolean) => void;
	/** A sync ended (reported, failed or stopped). */
	onSynced?: () => void;
	/** A sync is asked of the indexer, numbered (a later walk says the last request it saw). */
	onSyncRequest?: (id: number) => void;
	/** A sync ended with its report: what its walk looked into, when the indexer said (session-watch.ts). */
	onWalk?: (walk: Required<WalkSeen> | undefined, report: SyncReport | undefined) => void;
	/** Run the work in this process even where a child could run it (tests). */
	inProcess?: boolean;
	/** The calls the work answers when it runs in this process (the indexer process's entry registers its own). */
	calls?: () => Promise<Record<string, IndexerCall>>;
}

/** One sync as its requester sees it: `planned` settles once its work is known (or it ended), `done` at its end. */
export interface IndexerRun {
	planned: Promise<IndexingProgress | undefined>;
	done: Promise<SyncReport | undefined>;
}

interface Transport {
	place: IndexerPlace;
	send(message: ToIndexer): void;
	/** Let go of the indexer: a sync it runs goes on to its end. */
	close(): void;
}

interface Deferred<T> {
	promise: Promise<T>;
	resolve(value: T): void;
	reject(error: Error): void;
}

function deferred<T>(): Deferred<T> {
	let resolve!: (value: T) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	// A requester may have stopped listening (a search answered already): its rejection is no crash.
	promise.catch(() => undefined);
	return { promise, resolve, reject };
}

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/**
 * The file the indexer process runs and how to start it, or undefined where none can run. `indexComplete`: the index's
 * last long sync ran to its end, so the indexer is started for what comes after (a freshness sync, a search), not
 * for a first index.
 */
export function indexerCommand(indexComplete: boolean): { exe: string; args: string[]; env: Record<string, string> } | undefined {
	const built = builtFile("indexer.js");
	if (isBun) {
		const file = built ?? fileURLToPath(new URL("../indexer.ts", import.meta.url));
		// BUN_BE_BUN: a host compiled into one executable with Bun runs as Bun itself, not as that host.
		return existsSync(file) ? { exe: process.execPath, args: [file], env: { BUN_BE_BUN: "1" } } : undefined;
	}
	// The flag must be given at start-up (v8.setFlagsFromString takes effect only for V8 state made later): no
	// TurboFan job on a background thread, so the process's exit cannot deadlock (nodejs/node#54918).
	const args = ["--no-concurrent-recompilation"];
	// After a first index the engine's wasm is compiled by Liftoff only, as in a one-shot command: tiering it up costs
	// a process that starts for a search more than it gains (a print-mode Pi's first search on a complete 2 GB index
	// waited ~0.35 s for the indexer's answer with tier-up, ~0.2 s without), while indexing, which tier-up speeds up
	// by 10–20% of its CPU, is then the little that is new. A first index keeps the optimising tier.
	if (indexComplete) args.push("--liftoff-only");
	return built ? { exe: process.execPath, args: [...args, built], env: {} } : undefined;
}

function childTransport(
	first: ToIndexer[],
	complete: boolean,
	onMessage: (m: FromIndexer) => void,
	onGone: (why: string) => void,
): Transport | undefined {
	const command = indexerCommand(complete);
	if (!command) return undefined;
	const given = firstMessagesValue(first);
	// Its errors go nowhere unless LOOKBACK_INDEXER_LOG names a file to append them to.
	const log = process.env.LOOKBACK_INDEXER_LOG ? openSync(process.env.LOOKBACK_INDEXER_LOG, "a") : undefined;
	const child = spawn(command.exe, command.args, {
		// Nothing of the host's terminal: the child must never write into a TUI, nor die with the host's pipes.
		stdio: ["ignore", "ignore", log ?? "ignore", "ipc"],
		detached: true,
		env: { ...process.env, ...command.env, ...(given ? { [FIRST_MESSAGES_ENV]: given } : {}) },
	});
	if (log !== undefined) closeSync(log);
	if (!given) for (const message of first) child.send(message);
	child.unref();
	(child.channel as { unref?: () => void } | undefined)?.unref?.();
	child.on("message", (message: FromIndexer) => onMessage(message));
	child.on("error", (error) => onGone(`lookback: the indexer process did not start: ${error.message}`));
	child.on("exit", (code, signal) => onGone(`lookback: the indexer process stopped (${signal ?? `exit code ${code}`})`));
	return {
		place: "child process",
		send: (message) => {
			if (child.connected) child.send(message);
		},
		close: () => {
			if (child.connected) child.disconnect();
		},
	};
}

/** The indexer's work as a module, imported once: a host that runs for days may need it after an upgrade (`Indexer.preload`). */
const indexerWork = importOnce(() => import("./indexer-work.js"));

/** The work in the host's own process (loaded when first needed: it holds the engine and the parsers). */
function hostTransport(first: ToIndexer[], onMessage: (m: FromIndexer) => void, calls: IndexerHooks["calls"]): Transport {
	const work = Promise.all([indexerWork(), calls?.() ?? {}]).then(
		([{ IndexerWork }, registered]) => new IndexerWork((message) => setImmediate(() => onMessage(message)), registered),
	);
	const transport: Transport = {
		place: "host process",
		send: (message) => void work.then((w) => w.handle(message)),
		close: () => void work.then((w) => w.hostGone()),
	};
	for (const message of first) transport.send(message);
	return transport;
}

export class Indexer {
	private transport?: Transport;
	private opened?: Deferred<string>;
	private current?: { planned: Deferred<IndexingProgress | undefined>; done: Deferred<SyncReport | undefined> };
	/** Snapshots and calls waiting for their answer, by id. */
	private readonly answers = new Map<number, Deferred<unknown>>();
	private nextId = 1;
	private nextSync = 1;
	/** Holds the host's event loop open while it awaits the indexer (the channel itself holds nothing). */
	private keepAlive?: ReturnType<typeof setInterval>;
	/** Where the running sync stands; undefined when none runs. */
	progress?: IndexingProgress & { elsewhere: boolean };
	/** The report of the last sync that ended. */
	lastReport?: SyncReport;
	/** The folders the indexer's last walk said (a later walk that found the same ones leaves them out). */
	private lastFolders?: WalkedFolders;

	constructor(
		private readonly options: NodeIndexOptions,
		private readonly hooks: IndexerHooks = {},
	) {}

	/** Where the work runs (known once started). */
	get place(): IndexerPlace | undefined {
		return this.transport?.place;
	}

	/** Whether a sync runs (this indexer's, or another process's it follows). */
	get syncing(): boolean {
		return this.current !== undefined;
	}

	/** The indexer, started (with `then`, a message to follow the opening) unless it runs; or `then` sent to it. */
	private start(then?: ToIndexer): Transport {
		if (this.transport) {
			if (then) this.transport.send(then);
			return this.transport;
		}
		const onMessage = (message: FromIndexer) => this.receive(message);
		// The environment decides the session roots and the engine: the indexer gets a plain copy of it.
		const first: ToIndexer[] = [{ type: "open", options: { ...this.options, env: { ...(this.options.env ?? process.env) } } }];
		if (then) first.push(then);
		const transport =
			(!this.hooks.inProcess &&
				childTransport(first, indexComplete(indexPathOf(this.options)), onMessage, (why) => this.gone(transport, why))) ||
			hostTransport(first, onMessage, this.hooks.calls);
		this.transport = transport;
		this.lastFolders = undefined;
		this.opened = deferred();
		return transport;
	}

	/** The indexer is gone: what it was asked fails, and the next request starts another. */
	private gone(transport: Transport | undefined, why: string): void {
		if (!transport || this.transport !== transport) return;
		this.transport = undefined;
		const error = new Error(why);
		this.opened?.reject(error);
		this.opened = undefined;
		this.endSync(error);
		for (const waiting of this.answers.values()) waiting.reject(error);
		this.answers.clear();
	}

	private receive(message: FromIndexer): void {
		switch (message.type) {
			case "opened":
				this.opened?.resolve(message.indexPath);
				break;
			case "open-failed":
				this.opened?.reject(new Error(message.error));
				// The next request tries again (a busy index, a folder made meanwhile).
				this.transport?.close();
				this.transport = undefined;
				this.opened = undefined;
				this.endSync(new Error(message.error));
				break;
			case "progress":
				this.progress = { ...message.progress, elsewhere: message.elsewhere };
				this.current?.planned.resolve(message.progress);
				this.hooks.onProgress?.(message.progress, message.elsewhere);
				break;
			case "synced": {
				if (message.report) this.lastReport = message.report;
				const walk = message.walk;
				if (walk?.folders) this.lastFolders = walk.folders;
				const folders = walk?.folders ?? this.lastFolders;
				this.hooks.onWalk?.(walk && folders ? { ...walk, folders } : undefined, message.report);
				this.endSync(undefined, message.report);
				break;
			}
			case "sync-failed":
				this.hooks.onWalk?.(undefined, undefined);
				this.endSync(new Error(message.error));
				break;
			case "answer": {
				const waiting = this.answers.get(message.id);
				this.answers.delete(message.id);
				if (message.error === undefined) waiting?.resolve(message.value);
				else waiting?.reject(message.code ? new LookbackError(message.code, message.error) : new Error(message.error));
				break;
			}
		}
	}

	private endSync(error: Error | undefined, report?: SyncReport): void {
		const current = this.current;
		if (!current) return;
		this.current = undefined;
		this.progress = undefined;
		current.planned.resolve(undefined);
		if (error) current.done.reject(error);
		else current.done.resolve(report);
		this.hooks.onSynced?.();
	}

	/**
	 * Wait for `promise` with the host's event loop held open (the channel to the indexer holds nothing, so a host
	 * with nothing else to do would exit in the middle). A sync started and not awaited holds nothing: a
	 * print-mode Pi exits when it is done, and the sync goes on in the indexer.
	 */
	async awaited<T>(promise: Promise<T>): Promise<T> {
		this.awaiting++;
		this.hold();
		try {
			return await promise;
		} finally {
			this.awaiting--;
			this.hold();
		}
	}

	private awaiting = 0;

	private hold(): void {
		const waiting = this.awaiting > 0;
		if (waiting && !this.keepAlive) this.keepAlive = setInterval(() => undefined, 1 << 30);
		else if (!waiting && this.keepAlive) {
			clearInterval(this.keepAlive);
			this.keepAlive = undefined;
		}
	}

	/** The index file, once the indexer has opened it (it creates or rebuilds it: the host then only reads). */
	ready(): Promise<string> {
		this.start();
		return this.opened!.promise;
	}

	/**
	 * A sync, or the one running now (this indexer's or another process's it follows). `changed`: only these files'
	 * contents changed since the indexer's last walk (a host that watches the folders knows), so it need not walk all.
	 */
	sync(changed?: string[]): IndexerRun {
		if (!this.current) {
			const id = this.nextSync++;
			this.hooks.onSyncRequest?.(id);
			// Given at the indexer's start when it starts now: a host exiting at once (session_shutdown) loses nothing.
			this.start({ type: "sync", id, ...(changed ? { changed } : {}) });
			this.current = { planned: deferred(), done: deferred() };
		}
		return { planned: this.current.planned.promise, done: this.current.done.promise };
	}

	/** Stop a running sync at its next file; what it finished is committed. */
	stop(): void {
		this.transport?.send({ type: "stop" });
	}

	/** Have the indexer make `lookback serve`'s read-optimised copy of `from` at `to` (read-snapshot.ts). */
	snapshot(from: string, to: string): Promise<SnapshotReads> {
		return this.ask((id) => ({ type: "snapshot", id, from, to })) as Promise<SnapshotReads>;
	}

	/**
	 * Run a call the indexer's entry registered (src/indexer.ts) in the indexer, on its connection: the index
	 * synced there first when that reads at most `waitBytes`. Its answer is plain JSON.
	 */
	call<T>(call: string, args: unknown, waitBytes?: number): Promise<T> {
		return this.ask((id) => ({ type: "call", id, call, args, waitBytes })) as Promise<T>;
	}

	private ask(message: (id: number) => ToIndexer): Promise<unknown> {
		const transport = this.start();
		const id = this.nextId++;
		const waiting = deferred<unknown>();
		this.answers.set(id, waiting);
		transport.send(message(id));
		return this.awaited(waiting.promise);
	}

	/**
	 * Load now what this indexer may import later: its work, which runs in the host's process where no indexer
	 * process can start (dist/indexer.js missing when one is started again, say).
	 */
	async preload(): Promise<void> {
		await indexerWork();
	}

	/** Let go of the indexer: a sync it runs goes on to its end in its own process, and then it exits. */
	close(): void {
		const transport = this.transport;
		this.gone(transport, "lookback: the indexer was closed");
		transport?.close();
	}
}
