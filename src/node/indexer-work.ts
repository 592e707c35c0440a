/**
 * What an indexer does with a host's messages: open the index with its own engine and connection (one more
 * holder in the lock protocol), sync one request at a time under the `indexer` slot — or, while another
 * process holds that slot, follow its progress and sync once it is done — make `lookback serve`'s read
 * snapshots, and answer the calls its entry registers (the Pi tool's, which read here so that Pi's event loop
 * never runs a query). Runs in the indexer process (src/indexer.ts), or in the host itself where there is no child.
 */

import {
	DEFAULTS,
	errorMessage,
	LookbackError,
	type SyncProgress,
	type SyncReport,
	type SyncState,
	syncState,
	type WalkResult,
} from "../core/index.js";
import type { FromIndexer, ToIndexer, WalkSeen } from "./indexer-messages.js";
import { bytesLeft, IndexerSlot, type IndexingProgress } from "./indexer-slot.js";
import { type NodeIndex, openNodeIndex } from "./open.js";
import { makeReadSnapshot } from "./read-snapshot.js";
import { walkAgain } from "./walk-again.js";

/** How often a follower looks at another process's progress, and how often progress is posted to the host. */
const FOLLOW_MS = 100;
const POST_MS = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The index as a call sees it here: what `HostIndex` offers in a host, answered by this process. */
export interface LocalIndex {
	open(): Promise<NodeIndex>;
	/** The index brought up to date when that is little work, and what the reply should say about it. */
	fresh(): Promise<{ opened: NodeIndex; state: SyncState }>;
	oversizedFiles(): string[];
	readonly indexing: boolean;
}

/** A call a host can make of its indexer by name: arguments and answer are plain JSON. */
export type IndexerCall = (index: LocalIndex, args: unknown) => Promise<unknown>;

export class IndexerWork {
	private opening?: Promise<NodeIndex>;
	private slot?: IndexerSlot;
	private running?: Promise<void>;
	private stop?: AbortController;
	private following = false;
	/** Where the running sync stands (this one's, or the one followed), and its first word. */
	private progress?: IndexingProgress;
	private planned?: { promise: Promise<void>; resolve: () => void };
	private lastReport?: SyncReport;
	private lastError?: string;
	/** The last sync request the host numbered. */
	private requested = 0;
	/** What changed since the last walk, as the requests since said: some files' contents, or anything ("all"). */
	private changed?: Set<string> | "all";
	/** The last walk, which the next can be made again from. */
	private lastWalk?: WalkResult;
	/** The folders the last walk said to the host, joined: a walk that finds the same ones does not send them again. */
	private lastFolders?: string;

	constructor(
		private readonly post: (message: FromIndexer) => void,
		private readonly calls: Record<string, IndexerCall> = {},
	) {}

	/** Whether a sync runs or is being waited for. */
	get busy(): boolean {
		return this.running !== undefined;
	}

	/** The host went away: stop following another process's sync (that process goes on); a sync of this one's own is finished. */
	hostGone(): void {
		if (this.following) this.stop?.abort();
	}

	/** Resolves once no sync runs. */
	async idle(): Promise<void> {
		while (this.running) await this.running;
	}

	handle(message: ToIndexer): void {
		switch (message.type) {
			case "open":
				this.opening ??= openNodeIndex(message.options);
				this.opening.then(
					(opened) => this.post({ type: "opened", indexPath: opened.indexPath }),
					(error: unknown) => this.post({ type: "open-failed", error: errorMessage(error) }),
				);
				break;
			case "sync":
				if (message.id !== undefined) this.requested = message.id;
				this.sync(message.changed);
				break;
			case "stop":
				this.stop?.abort();
				break;
			case "snapshot":
				this.answer(message.id, () => makeReadSnapshot(message.from, message.to));
				break;
			case "call": {
				const call = this.calls[message.call];
				this.answer(message.id, () =>
					call ? call(this.local(message.waitBytes), message.args) : Promise.reject(new Error(`lookback: no call "${message.call}"`)),
				);
				break;
			}
		}
	}

	private answer(id: number, run: () => Promise<unknown>): void {
		run().then(
			(value) => this.post({ type: "answer", id, value }),
			(error: unknown) =>
				this.post({ type: "answer", id, error: errorMessage(error), code: error instanceof LookbackError ? error.code : undefined }),
		);
	}

	/**
	 * Start a sync unless one runs. `changed`: the host saw only these files' contents change (the next walk may be
	 * made again from the last one); without it, something else may have changed, and the next walk walks all.
	 */
	private sync(changed?: string[]): void {
		if (!changed) this.changed = "all";
		else if (this.changed !== "all") {
			const files = this.changed ?? new Set<string>();
			for (const path of changed) files.add(path);
			this.changed = files;
		}
		if (this.running) return;
		let resolve: () => void = () => undefined;
		this.planned = { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
		this.running = this.syncOnce().finally(() => {
			this.running = undefined;
			this.progress = undefined;
			resolve();
		});
	}

	private setProgress(progress: IndexingProgress, elsewhere: boolean): void {
		this.progress = progress;
		this.planned?.resolve();
		this.post({ type: "progress", progress, elsewhere });
	}

	/** The index for a call: this process's connection, synced by this process first when that is little work. */
	private local(waitBytes: number = DEFAULTS.syncWaitBytes): LocalIndex {
		const open = async () => {
			const opened = await this.opening;
			if (!opened) throw new Error("lookback: the indexer was called before it was told which index to open");
			return opened;
		};
		const settle = async (): Promise<SyncState> => {
			this.sync();
			await this.planned?.promise;
			const p = this.progress;
			if (p && bytesLeft(p) > waitBytes) return { ...syncState(this.lastReport), indexing: { done: p.done, total: p.total } };
			await this.idle();
			return this.lastError ? { syncWarning: { kind: "sync-failed", error: this.lastError } } : syncState(this.lastReport);
		};
		const work = this;
		return {
			open,
			fresh: async () => {
				const state = await settle();
				return { opened: await open(), state };
			},
			oversizedFiles: () => (this.lastReport?.skippedFiles ?? []).filter((f) => f.reason === "oversized").map((f) => f.path),
			get indexing() {
				return work.busy;
			},
		};
	}

	/** A walk as the host is told it: its folders not again when they are the ones it was told last (thousands, at every search). */
	private seen({ folders, ...walk }: Required<WalkSeen>): WalkSeen {
		const joined = `${folders.listed.join("\n")}\n\n${folders.absent.join("\n")}`;
		if (joined === this.lastFolders) return walk;
		this.lastFolders = joined;
		return { ...walk, folders };
	}

	private async syncOnce(): Promise<void> {
		const stop = (this.stop = new AbortController());
		this.lastError = undefined;
		try {
			const opened = await this.opening;
			if (!opened) throw new Error("lookback: the indexer was asked to sync before it was told which index to open");
			const slot = (this.slot ??= new IndexerSlot(opened.indexPath));
			while (!slot.take()) {
				this.following = true;
				if (stop.signal.aborted) return this.post({ type: "synced" });
				const other = slot.other();
				// Until its walk is done the other's work is unknown: nothing is said, so the host waits that moment out.
				if (other && other.total > 0) this.setProgress(other, true);
				await sleep(FOLLOW_MS);
			}
			this.following = false;
			let report: SyncReport;
			let walk: Required<WalkSeen> | undefined;
			// The walk's start and what it looked into, for a host that watches those folders (session-watch.ts).
			const source = {
				...opened.source,
				walk: async () => {
					const after = this.requested;
					const changed = this.changed ?? "all";
					this.changed = undefined;
					const again = changed !== "all" && this.lastWalk ? walkAgain(this.lastWalk, changed) : undefined;
					const walked = again ?? (await opened.source.walk());
					this.lastWalk = walked;
					walk = walked.folders && { after, complete: walked.warnings.length === 0, again: again !== undefined, folders: walked.folders };
					return walked;
				},
			};
			try {
				let posted = 0;
				let planned = false;
				// Nothing is published before the plan: a follower reads no file as no figures yet. A file of zeros
				// written here was renamed over by the plan moments later, which makes ext4 write the plan out at once
				// (auto_da_alloc), and removing it at the end waited for that write: 1.5–3 ms of every sync that finds
				// nothing new, measured on this machine's disk.
				report = await opened.index.sync(source, {
					signal: stop.signal,
					onProgress: (p) => {
						const first = !planned;
						planned = true;
						slot.publish(p, first);
						// A plan with nothing to read is waited for by any host (its bytes left, 0, are within every bound),
						// so saying it would only wake the host once more before "synced", which follows at once. Progress
						// is said from the first file done, should there be one.
						if (first && p.workBytes === 0) return;
						const now = Date.now();
						if (!first && now - posted < POST_MS && p.done < p.total) return;
						posted = now;
						this.setProgress(progressOf(p), false);
					},
				});
				if (!stop.signal.aborted) slot.complete(true);
			} finally {
				slot.release();
			}
			// Said only once the slot is free: whoever hears "synced" finds no indexer running.
			this.lastReport = report;
			this.post({ type: "synced", report, ...(walk ? { walk: this.seen(walk) } : {}) });
		} catch (error) {
			this.lastError = errorMessage(error);
			this.post({ type: "sync-failed", error: this.lastError });
		} finally {
			this.following = false;
		}
	}
}

function progressOf(p: SyncProgress): IndexingProgress {
	return { done: p.done, total: p.total, bytesRead: p.bytesRead, workBytes: p.workBytes, pid: process.pid };
}
