/**
 * The index as a long-lived host holds it (the Pi and omp extension, `lookback mcp`, `lookback serve`): read
 * here, written only by the host's indexer (indexer.ts, a child process). Nothing is opened before it is
 * needed; a search first brings the index up to date when that is little work (`DEFAULTS.syncWaitBytes`),
 * and otherwise — a first index, a week away — answers at once from what is indexed, saying how far
 * indexing has got, while the sync goes on in the background. The index is opened in place and every
 * process follows the lock protocol, so any number of hosts, Pi windows and CLI runs share it.
 */

// The core's few modules this needs rather than its barrel, and the index opened by a dynamic import: the Pi
// extension makes a HostIndex at session_start, and loads nothing heavy before the first search.
import { DEFAULTS } from "../core/defaults.js";
import { errorMessage } from "../core/errors.js";
import type { EngineInfo, SyncReport } from "../core/index.js";
import { type SyncState, syncState } from "../core/replies/sync-state.js";
import { importOnce } from "./import-once.js";
import { IndexLocks } from "./index-locks.js";
import { Indexer, type IndexerHooks, type IndexerPlace } from "./indexer.js";
import { bytesLeft } from "./indexer-slot.js";
import type { NodeIndex, NodeIndexOptions } from "./open.js";
import { SessionWatch } from "./session-watch.js";

/** Where the index stands (the MCP server's status tool). */
export interface IndexStatus {
	state: "not-opened" | "opening" | "indexing" | "ready" | "failed";
	indexPath?: string;
	engine?: EngineInfo;
	indexing?: { done: number; total: number; elsewhere?: boolean };
	/** Where syncs run: the host's indexer process, or (without one) the host's own. */
	indexer?: IndexerPlace;
	sessions?: number;
	messages?: number;
	lastSync?: string;
	lastSyncReport?: Pick<
		SyncReport,
		"filesSeen" | "added" | "grown" | "rewritten" | "purged" | "unchanged" | "entriesIndexed" | "durationMs"
	>;
	/**
	 * The session folders watched; the syncs that watching spared (a search when nothing had changed), and those
	 * that stat'ed again only the files whose contents changed instead of walking every folder.
	 */
	watch?: { paths: number; syncsSkipped: number; changedFileSyncs: number };
	error?: string;
}

/** The module that opens the index, imported once (a host that runs for days outlives its build's chunks). */
const indexOpener = importOnce(() => import("./open.js"));

/** At most this long a read waits, off the event loop, for another process's commit to end (the engine's own wait follows). */
const COMMIT_WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface HostIndexOptions extends IndexerHooks {
	/** A search waits for a sync of at most this many bytes (default `DEFAULTS.syncWaitBytes`). */
	waitBytes?: number;
	/**
	 * Watch the session folders and skip the sync before a search when nothing changed since one that saw
	 * everything (session-watch.ts; where it can, Linux under Node).
	 */
	watch?: boolean;
	/** How the index is opened here (default `openNodeIndex`, loaded when first needed; the Pi extension's comes from its tool bundle). */
	open?: (options: NodeIndexOptions) => Promise<NodeIndex>;
}

export class HostIndex {
	readonly indexer: Indexer;
	private opening?: Promise<NodeIndex>;
	private current?: NodeIndex;
	/** This host's view of the lock files (to see another process commit), once the index is open. */
	private locks = { pendingFree: () => true };
	private failure?: string;
	private readonly waitBytes: number;
	private readonly openHere?: HostIndexOptions["open"];
	private readonly watch?: SessionWatch;
	/** Counts the `fresh()` calls that synced (or joined a sync): see `fresh`'s `version`. */
	private version = 0;

	constructor(
		private readonly options: NodeIndexOptions,
		hooks: HostIndexOptions = {},
	) {
		const watch = hooks.watch && SessionWatch.supported() ? new SessionWatch() : undefined;
		this.watch = watch;
		this.indexer = new Indexer(
			options,
			watch
				? {
						...hooks,
						onSyncRequest: (id) => {
							watch.requested(id);
							hooks.onSyncRequest?.(id);
						},
						onWalk: (walk, report) => {
							watch.synced(walk, report);
							hooks.onWalk?.(walk, report);
						},
					}
				: hooks,
		);
		this.waitBytes = hooks.waitBytes ?? DEFAULTS.syncWaitBytes;
		this.openHere = hooks.open;
	}

	/**
	 * The index, opened on first use (after the indexer, which creates or rebuilds it); a failed open is tried
	 * again by the next call. Resolves once no other process is committing: a read started during a commit
	 * waits for it inside the engine, where the wait blocks the host's event loop; this wait does not.
	 */
	async open(): Promise<NodeIndex> {
		const opened = await this.opened();
		const deadline = Date.now() + COMMIT_WAIT_MS;
		while (!this.locks.pendingFree() && Date.now() < deadline) await sleep(2);
		return opened;
	}

	private opened(): Promise<NodeIndex> {
		this.opening ??= this.indexer
			.awaited(this.indexer.ready())
			.then(async () => (this.openHere ? this.openHere(this.options) : (await indexOpener()).openNodeIndex(this.options)))
			.then(
				(opened) => {
					this.current = opened;
					this.locks = new IndexLocks(opened.indexPath);
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

	/**
	 * Load now every module this host index imports lazily (the index's opener, the indexer's work in this
	 * process), for a host that stays up: the CLI is built in hashed chunks (scripts/build.mjs), and an upgrade
	 * (`npm i -g lookback@next`, a rebuild) removes those of the build a running server came from, so a first
	 * import days later would fail with ERR_MODULE_NOT_FOUND. Nothing is opened or started.
	 */
	async preload(): Promise<void> {
		await Promise.all([this.openHere ? undefined : indexOpener(), this.indexer.preload()]);
	}

	/** Index what is new in the background, without opening anything here (the first index of a history may take minutes). */
	background(): void {
		this.indexer.sync().done.catch((error: unknown) => (this.failure = errorMessage(error)));
	}

	/** Run a call of the indexer's (src/indexer.ts) there, syncing there first as `fresh` would. */
	call<T>(name: string, args: unknown): Promise<T> {
		return this.indexer.call<T>(name, args, this.waitBytes);
	}

	/** Open the index and index what is new in the background (a server, once its client is connected). */
	warmUp(): void {
		this.background();
		this.open().catch(() => undefined);
	}

	/**
	 * The index brought up to date when that is little work, and what the reply should say about it. `version` stays
	 * the same from one call to the next only while the watched folders say nothing changed and no sync was asked:
	 * what a caller worked out from the index and the session files at one version still holds at the same.
	 */
	async fresh(): Promise<{ opened: NodeIndex; state: SyncState; version: number }> {
		// The engine loads and the index opens here while the indexer syncs.
		const opening = this.opened();
		opening.catch(() => undefined);
		const state = await this.settle();
		return { opened: await this.open(), state, version: this.version };
	}

	/**
	 * Wait for the sync (started now, or the one running) when little is left of it; what a reply should say about
	 * it. Where the session folders are watched, none is started when nothing changed since a sync that saw
	 * everything, and one that stats again only the files that changed when all that changed was their contents.
	 */
	async settle(): Promise<SyncState> {
		let changed: string[] | undefined;
		if (this.watch && !this.indexer.syncing) {
			const need = await this.watch.need();
			if (!this.indexer.syncing) {
				if (!need.sync) return syncState(this.indexer.lastReport);
				changed = need.changed;
			}
		}
		this.version++;
		const run = this.indexer.sync(changed);
		// Where a sync that runs already stands now (a first index near its end is worth the wait), else its plan.
		const plan = this.indexer.progress ?? (await this.indexer.awaited(run.planned));
		if (plan && bytesLeft(plan) > this.waitBytes) return this.indexingState();
		try {
			return syncState(await this.indexer.awaited(run.done));
		} catch (error) {
			return { syncWarning: { kind: "sync-failed", error: errorMessage(error) } };
		}
	}

	/** A running sync as a reply says it, with the last finished sync's warnings. */
	private indexingState(): SyncState {
		const p = this.indexer.progress;
		return { ...syncState(this.indexer.lastReport), ...(p ? { indexing: { done: p.done, total: p.total } } : {}) };
	}

	/** Files the last sync skipped as too large (to explain a session id that is not in the index). */
	oversizedFiles(): string[] {
		return (this.indexer.lastReport?.skippedFiles ?? []).filter((f) => f.reason === "oversized").map((f) => f.path);
	}

	/** Whether a sync runs now. */
	get indexing(): boolean {
		return this.indexer.syncing;
	}

	status(): IndexStatus {
		const opened = this.current;
		if (!opened)
			return { state: this.failure ? "failed" : this.opening ? "opening" : "not-opened", ...(this.failure ? { error: this.failure } : {}) };
		const r = this.indexer.lastReport;
		const p = this.indexer.progress;
		return {
			state: this.indexer.syncing ? "indexing" : "ready",
			...(this.indexer.place ? { indexer: this.indexer.place } : {}),
			indexPath: opened.indexPath,
			engine: opened.index.engine,
			// A sync just started has walked nothing yet: it still says it is indexing, at 0 of 0 files.
			...(this.indexer.syncing || p
				? { indexing: { done: p?.done ?? 0, total: p?.total ?? 0, ...(p?.elsewhere ? { elsewhere: true } : {}) } }
				: {}),
			...opened.index.overview(),
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
			...(this.watch
				? { watch: { paths: this.watch.watching, syncsSkipped: this.watch.skipped, changedFileSyncs: this.watch.changedFileSyncs } }
				: {}),
			...(this.failure ? { error: this.failure } : {}),
		};
	}

	/** Close the index here and let go of the indexer: a sync it runs goes on to its end in its own process. */
	close(): void {
		this.watch?.close();
		this.indexer.close();
		this.current?.index.close();
		this.current = undefined;
		this.opening = undefined;
	}
}
