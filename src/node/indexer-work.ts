/**
 * What an indexer does with a host's messages: open the index with its own engine and connection (one more
 * holder in the lock protocol), sync one request at a time under the `indexer` slot — or, while another
 * process holds that slot, follow its progress and sync once it is done — and make `lookback serve`'s read
 * snapshots. Runs in the indexer process (indexer-child.ts), or in the host itself where there is no child.
 */

import { errorMessage, LookbackError, type SyncProgress } from "../core/index.js";
import type { FromIndexer, ToIndexer } from "./indexer-messages.js";
import { IndexerSlot, type IndexingProgress } from "./indexer-slot.js";
import { type NodeIndex, openNodeIndex } from "./open.js";
import { makeReadSnapshot } from "./read-snapshot.js";

/** How often a follower looks at another process's progress, and how often progress is posted to the host. */
const FOLLOW_MS = 100;
const POST_MS = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class IndexerWork {
	private opening?: Promise<NodeIndex>;
	private slot?: IndexerSlot;
	private running?: Promise<void>;
	private stop?: AbortController;
	private following = false;

	constructor(private readonly post: (message: FromIndexer) => void) {}

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
		if (message.type === "open") {
			this.opening ??= openNodeIndex(message.options);
			this.opening.then(
				(opened) => this.post({ type: "opened", indexPath: opened.indexPath }),
				(error: unknown) => this.post({ type: "open-failed", error: errorMessage(error) }),
			);
		} else if (message.type === "sync") {
			this.running ??= this.syncOnce().finally(() => (this.running = undefined));
		} else if (message.type === "stop") this.stop?.abort();
		else
			makeReadSnapshot(message.from, message.to).then(
				() => this.post({ type: "snapshot-done", id: message.id }),
				(error: unknown) =>
					this.post({
						type: "snapshot-done",
						id: message.id,
						error: errorMessage(error),
						code: error instanceof LookbackError ? error.code : undefined,
					}),
			);
	}

	private async syncOnce(): Promise<void> {
		const stop = (this.stop = new AbortController());
		try {
			const opened = await this.opening;
			if (!opened) throw new Error("lookback: the indexer was asked to sync before it was told which index to open");
			const slot = (this.slot ??= new IndexerSlot(opened.indexPath));
			while (!slot.take()) {
				this.following = true;
				if (stop.signal.aborted) return this.post({ type: "synced" });
				const other = slot.other();
				// Until its walk is done the other's work is unknown: nothing is said, so the host waits that moment out.
				if (other && other.total > 0) this.post({ type: "progress", progress: other, elsewhere: true });
				await sleep(FOLLOW_MS);
			}
			this.following = false;
			try {
				let posted = 0;
				const say = (p: SyncProgress, first: boolean) => {
					slot.publish(p, first);
					const now = Date.now();
					if (!first && now - posted < POST_MS && p.done < p.total) return;
					posted = now;
					this.post({ type: "progress", progress: progressOf(p), elsewhere: false });
				};
				slot.publish({ done: 0, total: 0, bytesRead: 0, workBytes: 0, path: "" }, true);
				let planned = false;
				const report = await opened.index.sync(opened.source, {
					signal: stop.signal,
					onProgress: (p) => {
						say(p, !planned);
						planned = true;
					},
				});
				this.post({ type: "synced", report });
			} finally {
				slot.release();
			}
		} catch (error) {
			this.post({ type: "sync-failed", error: errorMessage(error) });
		} finally {
			this.following = false;
		}
	}
}

function progressOf(p: SyncProgress): IndexingProgress {
	return { done: p.done, total: p.total, bytesRead: p.bytesRead, workBytes: p.workBytes, pid: process.pid };
}
