/**
 * What has changed since a sync that saw everything, so that a host can answer a search without a sync (the walk
 * of every session file, in the indexer process) when nothing did, and with one that stats again only the files
 * written when all that changed was some files' contents (a session growing: the calling agent's own, most often).
 * Every folder the last walk listed is watched (`WalkResult.folders`): its watch sees a file in it created,
 * removed, renamed, written or touched. A folder the walk looked for and did not find is watched for in the
 * nearest folder above it that is there, by the name on the way. A sync is trusted only when its walk began after
 * a request that this host sent once every watch it needs was in place and every change seen (an order of events
 * in this process, not of two processes' clocks), and then for `TRUST_MS` at most.
 *
 * Linux only, under Node: inotify queues an event within the write that causes it, so once a search sent after a
 * write has been read from the client, the write's event is queued too, and `quiet()` lets the event loop take it
 * before it answers. FSEvents (macOS) and Windows deliver theirs later: there every search syncs first, as before.
 */

import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { SyncReport, WalkedFolders } from "../core/index.js";
import type { WalkSeen } from "./indexer-messages.js";

/**
 * A trusted sync stands for at most this long: a change no watch sees (a file system another machine writes, the
 * kernel's queue of events overflowing while the host's event loop was held) is found by the sync after it.
 */
const TRUST_MS = 60_000;
/** More watches than this are not made (inotify's limit is per user, and other programs need theirs). */
const MAX_WATCHES = 20_000;

/** What a path is watched for: every change in it (undefined), or in a folder above an absent one, changes to these names. */
type Names = Set<string> | undefined;

interface Watch {
	watcher: FSWatcher;
	/** When (`SessionWatch.step`) it was put in place, or its names last changed: a walk before it is not covered by it. */
	since: number;
	names: Names;
}

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/** What a search needs first: nothing, a sync that stats again only the files `changed` (their contents), or a whole sync. */
export type Need = { sync: false } | { sync: true; changed?: string[] };

export class SessionWatch {
	private readonly watches = new Map<string, Watch>();
	/** The watches the last walk's folders need. */
	private wanted = new Map<string, Names>();
	private folders?: WalkedFolders;
	/** Something changed above an absent folder: which folder above it is there may be another now. */
	private stale = false;
	/** Counts what happens here in order: changes seen, watches put in place, sync requests sent. */
	private step = 0;
	/** The step of the last change seen other than a file's contents (or of a watch lost). */
	private lastChange = 0;
	/** Files whose contents changed since the trusted sync, and the step of their last change. */
	private readonly written = new Map<string, number>();
	/** Sync requests sent and not yet covered by a walk, by id: their step and time. */
	private readonly requests = new Map<number, { step: number; at: number }>();
	/** When the request of the trusted sync was sent (`now()`), if one is trusted. */
	private trustedAt?: number;
	private failed = false;
	/** Searches answered without a sync, and syncs that stat'ed again only the files written (for the status). */
	skipped = 0;
	changedFileSyncs = 0;

	constructor(private readonly now: () => number = Date.now) {}

	/** Whether changes can be watched here as this module needs (see above). */
	static supported(): boolean {
		return process.platform === "linux" && !isBun;
	}

	/** Paths watched now. */
	get watching(): number {
		return this.watches.size;
	}

	/**
	 * What changed since a sync that saw everything. The event loop first takes what the kernel has queued for it,
	 * so a change made before the caller was asked is seen (and, when a sync follows, it is asked after the change:
	 * its walk is then trusted).
	 */
	async need(): Promise<Need> {
		await new Promise<void>((resolve) => setImmediate(resolve));
		if (this.trustedAt === undefined || this.now() - this.trustedAt >= TRUST_MS) return { sync: true };
		if (this.written.size > 0) return { sync: true, changed: [...this.written.keys()] };
		this.skipped++;
		return { sync: false };
	}

	/** A sync request, numbered, is about to be sent. */
	requested(id: number): void {
		this.requests.set(id, { step: ++this.step, at: this.now() });
	}

	/**
	 * A sync ended: trust it when it saw everything and its walk began after a request sent once all it looked into
	 * was watched and every change so far seen; then watch what it found.
	 */
	synced(walk: Required<WalkSeen> | undefined, report: SyncReport | undefined): void {
		const trusted = this.trustedAt;
		this.trustedAt = undefined;
		const request = walk && this.requests.get(walk.after);
		if (walk) for (const id of this.requests.keys()) if (id <= walk.after) this.requests.delete(id);
		if (this.failed || !walk || !report) return;
		if (walk.folders !== this.folders || this.stale) this.want(walk.folders);
		const sawAll =
			walk.complete && !report.interrupted && !report.warnings.some((w) => w.kind === "sync-failed" || w.kind === "archive-failed");
		const before = request?.step ?? 0;
		const watchedThroughout = [...this.wanted].every(([path, names]) => {
			const w = this.watches.get(path);
			return w !== undefined && w.since < before && sameNames(w.names, names);
		});
		if (request && sawAll && watchedThroughout && this.lastChange < before) {
			// A walk made again from the last stands on the trust of the one it was made from.
			this.trustedAt = walk.again ? trusted : request.at;
			if (walk.again) this.changedFileSyncs++;
			for (const [path, step] of this.written) if (step < before) this.written.delete(path);
		}
		this.reconcile();
	}

	/** The watches a walk's folders need: each folder listed, and for each absent one the nearest folder above it that is there. */
	private want(folders: WalkedFolders): void {
		this.folders = folders;
		this.stale = false;
		const wanted = new Map<string, Names>();
		for (const path of folders.listed) wanted.set(path, undefined);
		for (const absent of folders.absent) {
			for (let child = absent, parent = dirname(absent); parent !== child; child = parent, parent = dirname(parent)) {
				if (wanted.has(parent) && wanted.get(parent) === undefined) break;
				if (!existsSync(parent)) continue;
				wanted.set(parent, new Set(wanted.get(parent)).add(basename(child)));
				break;
			}
		}
		this.wanted = wanted;
	}

	/** Put the watches wanted in place; close the others. */
	private reconcile(): void {
		if (this.wanted.size > MAX_WATCHES) {
			this.fail();
			return;
		}
		for (const [path, w] of this.watches) if (!this.wanted.has(path)) this.drop(path, w);
		for (const [path, names] of this.wanted) {
			const w = this.watches.get(path);
			if (w && sameNames(w.names, names)) continue;
			if (w) {
				w.names = names;
				w.since = ++this.step;
			} else if (!this.start(path, names)) {
				this.fail();
				return;
			}
		}
	}

	/** Watch a path; false when watching cannot go on. */
	private start(path: string, names: Names): boolean {
		let watcher: FSWatcher;
		try {
			watcher = watch(path, { persistent: false });
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			// Gone since the walk: a change, which the next walk finds.
			if (code === "ENOENT" || code === "ENOTDIR") {
				this.changed();
				return true;
			}
			return false;
		}
		const w: Watch = { watcher, since: ++this.step, names };
		watcher.on("change", (event, name) => {
			const file = typeof name === "string" ? name : name?.toString();
			// The path itself (inotify names it in the event), or a file in it of the same name: removed or moved, its
			// watch sees nothing more.
			const itself = file === basename(path);
			if (w.names) {
				if (!itself && file !== undefined && !w.names.has(file)) return;
				this.stale = true;
			} else if (event === "change" && file !== undefined && !itself) {
				// A file in a folder written or touched: the next sync need only stat it again.
				this.written.set(join(path, file), ++this.step);
				return;
			}
			this.changed();
			if (itself && event === "rename") this.drop(path, w);
		});
		watcher.on("error", () => {
			this.changed();
			this.stale = true;
			this.drop(path, w);
		});
		this.watches.set(path, w);
		return true;
	}

	private drop(path: string, w: Watch): void {
		w.watcher.close();
		if (this.watches.get(path) === w) this.watches.delete(path);
	}

	private changed(): void {
		this.lastChange = ++this.step;
		this.trustedAt = undefined;
	}

	/** Watching cannot go on (inotify's limit, too many folders): every search syncs first, as without a watch. */
	private fail(): void {
		this.failed = true;
		this.close();
	}

	close(): void {
		for (const [path, w] of this.watches) this.drop(path, w);
		this.trustedAt = undefined;
	}
}

function sameNames(a: Names, b: Names): boolean {
	if (!a || !b) return a === b;
	return a.size === b.size && [...a].every((n) => b.has(n));
}
