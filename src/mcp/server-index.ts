/**
 * The one index a `lookback mcp` process serves. Nothing is opened before the client's handshake is answered:
 * `warmUp` opens it and starts a first index in the background, every search first syncs incrementally, and
 * no call waits for a sync longer than `DEFAULTS.indexWaitMs` (it answers from what is indexed so far and says
 * how far indexing has got). The index is opened in place and follows the lock protocol, so any number of
 * servers, Pi windows and CLI runs share it.
 */

import { DEFAULTS, type EngineInfo, errorMessage, type SyncProgress, type SyncReport, type SyncState, syncState } from "../core/index.js";
import { type NodeIndex, type NodeIndexOptions, openNodeIndex } from "../node/open.js";
import { type SyncRunner, syncRunner } from "./sync-call.js";

/** Where the index stands, for the status tool. */
export interface IndexStatus {
	state: "not-opened" | "opening" | "indexing" | "ready" | "failed";
	indexPath?: string;
	engine?: EngineInfo;
	indexing?: { done: number; total: number };
	/** Where syncs run: on their own thread, or between the server's requests. */
	indexer?: "worker thread" | "server thread";
	sessions?: number;
	messages?: number;
	lastSync?: string;
	lastSyncReport?: Pick<
		SyncReport,
		"filesSeen" | "added" | "grown" | "rewritten" | "purged" | "unchanged" | "entriesIndexed" | "durationMs"
	>;
	error?: string;
}

/** Resolves true when `promise` settles within `ms`, false when the time runs out first. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
	const settled = promise.then(
		() => true as const,
		() => true as const,
	);
	const done = await Promise.race([settled, timeout]);
	clearTimeout(timer);
	return done;
}

export class ServerIndex {
	private opening?: Promise<NodeIndex>;
	private opened?: NodeIndex;
	private syncing?: Promise<SyncReport>;
	private progress?: SyncProgress;
	private lastReport?: SyncReport;
	private failure?: string;
	private runner?: SyncRunner;
	private readonly stop = new AbortController();

	constructor(
		private readonly options: NodeIndexOptions,
		private readonly waitMs: number = DEFAULTS.indexWaitMs,
	) {}

	/** The index, opened on first use; a failed open is tried again by the next call. */
	open(): Promise<NodeIndex> {
		this.opening ??= openNodeIndex(this.options).then(
			(opened) => {
				this.opened = opened;
				this.failure = undefined;
				return opened;
			},
			(error: unknown) => {
				this.opening = undefined;
				this.failure = errorMessage(error);
				throw error;
			},
		);
		return this.opening;
	}

	/** Open the index and index what is new in the background (the first index of a history may take minutes). */
	warmUp(): void {
		void this.open()
			.then((opened) => this.sync(opened))
			.catch(() => undefined);
	}

	/** Start a sync unless one runs; resolves with its report. */
	private sync(opened: NodeIndex): Promise<SyncReport> {
		if (this.stop.signal.aborted) return Promise.reject(new Error("lookback: the server is closing"));
		this.runner ??= syncRunner(this.options, opened);
		this.syncing ??= this.runner
			.run({ onProgress: (p) => (this.progress = p), signal: this.stop.signal })
			.then(
				(report) => {
					this.lastReport = report;
					return report;
				},
				(error: unknown) => {
					this.failure = errorMessage(error);
					throw error;
				},
			)
			.finally(() => {
				this.syncing = undefined;
				this.progress = undefined;
			});
		return this.syncing;
	}

	/** The index brought up to date as far as `waitMs` allows, and what the reply should say about it. */
	async fresh(): Promise<{ opened: NodeIndex; state: SyncState }> {
		const opened = await this.open();
		const running = this.sync(opened);
		if (!(await settledWithin(running, this.waitMs))) {
			const p = this.progress;
			return { opened, state: { indexing: { done: p?.done ?? 0, total: p?.total ?? 0 }, ...syncState(this.lastReport) } };
		}
		try {
			return { opened, state: syncState(await running) };
		} catch (error) {
			return { opened, state: { syncWarning: { kind: "sync-failed", error: errorMessage(error) } } };
		}
	}

	/** Files the last sync skipped as too large (to explain a session id that is not in the index). */
	oversizedFiles(): string[] {
		return (this.lastReport?.skippedFiles ?? []).filter((f) => f.reason === "oversized").map((f) => f.path);
	}

	/** Whether a sync is running now. */
	get indexing(): boolean {
		return this.syncing !== undefined;
	}

	status(): IndexStatus {
		const opened = this.opened;
		if (!opened)
			return { state: this.failure ? "failed" : this.opening ? "opening" : "not-opened", ...(this.failure ? { error: this.failure } : {}) };
		const overview = opened.index.overview();
		const r = this.lastReport;
		const p = this.progress;
		return {
			state: this.syncing ? "indexing" : "ready",
			...(this.runner ? { indexer: this.runner.threaded ? "worker thread" : "server thread" } : {}),
			indexPath: opened.indexPath,
			engine: opened.index.engine,
			...(this.syncing ? { indexing: { done: p?.done ?? 0, total: p?.total ?? 0 } } : {}),
			...overview,
			...(r
				? {
						lastSyncReport: {
							filesSeen: r.filesSeen,
							added: r.added,
							grown: r.grown,
							rewritten: r.rewritten,
							purged: r.purged,
							unchanged: r.unchanged,
							entriesIndexed: r.entriesIndexed,
							durationMs: Math.round(r.durationMs),
						},
					}
				: {}),
			...(this.failure ? { error: this.failure } : {}),
		};
	}

	/**
	 * Stop a running sync at its next file and close the index. A sync still waiting for another process's
	 * commit after `closeWaitMs` is left to the process's exit: every batch it finished is committed, and a
	 * batch cut short is rolled back from its journal by the next process to open the index.
	 */
	async close(closeWaitMs = 2_000): Promise<void> {
		this.stop.abort();
		const stopped = !this.syncing || (await settledWithin(this.syncing, closeWaitMs));
		await this.runner?.close();
		if (!stopped) return;
		const opened = await this.opening?.catch(() => undefined);
		opened?.index.close();
	}
}
