/**
 * The one indexer of an index file: whichever process syncs holds `indexer` in the lock folder (taken
 * atomically like `reserved`, see index-locks.ts) for the whole sync, and says how far it has got in
 * `indexer.json` beside it. Every other process — a Pi window, the MCP server, the CLI — reads that instead
 * of parsing the same files in turn: it shows the progress, and waits for the holder only when little is left.
 * A holder that dies leaves its files to be removed by whoever finds them, as with every lock file.
 */

import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULTS } from "../core/defaults.js";
import type { SyncProgress } from "../core/index.js";
import { IndexLocks } from "./index-locks.js";
import { PRIVATE_FILE, writePrivateFile } from "./private-files.js";

/** Where a sync stands, as its holder last said (at most `PUBLISH_MS` old while it runs). */
export interface IndexingProgress {
	done: number;
	total: number;
	bytesRead: number;
	/** Bytes the sync reads in all (`SyncProgress.workBytes`); 0 until its walk is done. */
	workBytes: number;
	/** The process that runs it. */
	pid: number;
}

/** How often a holder rewrites its progress file. */
const PUBLISH_MS = 200;

/**
 * In the lock folder while the last long sync of the index ran to its end: no first index is left to finish, so a
 * print-mode Pi that did not search need not start an indexer at its exit (the next search syncs what it wrote).
 */
const COMPLETE_FILE = "complete";

/** Whether the index's last long sync ran to its end (one stat, without opening anything). */
export function indexComplete(indexPath: string): boolean {
	const path = resolve(indexPath);
	return existsSync(join(`${path}.locks`, COMPLETE_FILE)) && existsSync(path);
}

export class IndexerSlot {
	private readonly locks: IndexLocks;
	private readonly progressFile: string;
	private lastPublished = 0;

	constructor(indexPath: string) {
		this.locks = new IndexLocks(resolve(indexPath));
		this.progressFile = join(this.locks.dir, "indexer.json");
	}

	/** Take the slot; false while another live process holds it. */
	take(): boolean {
		if (!this.locks.indexer()) return false;
		this.lastPublished = 0;
		return true;
	}

	get held(): boolean {
		return this.locks.held.indexer;
	}

	/**
	 * Say how far this holder's sync has got (throttled; `force` for the first and last word). The first word of a
	 * long sync says the index is not complete until that sync ends (`complete(true)`); one that dies leaves it so.
	 */
	publish(progress: SyncProgress, force = false): void {
		if (!this.held) return;
		if (this.lastPublished === 0 && bytesLeft(progress) > DEFAULTS.syncWaitBytes) this.complete(false);
		const now = Date.now();
		if (!force && now - this.lastPublished < PUBLISH_MS) return;
		this.lastPublished = now;
		const { done, total, bytesRead, workBytes } = progress;
		try {
			writePrivateFile(
				this.progressFile,
				JSON.stringify({ owner: this.locks.ownerLine, done, total, bytesRead, workBytes, pid: process.pid }),
			);
		} catch {
			// progress is for show: a folder that cannot be written costs the followers their figures, nothing else
		}
	}

	/** Said by the holder: a long sync begins (false), or a sync ran to its end (true). */
	complete(done: boolean): void {
		const file = join(this.locks.dir, COMPLETE_FILE);
		try {
			if (done) writeFileSync(file, "", { mode: PRIVATE_FILE });
			else rmSync(file, { force: true });
		} catch {
			// for a host's choice at its exit only: a folder that cannot be written makes it start an indexer
		}
	}

	release(): void {
		if (!this.held) return;
		rmSync(this.progressFile, { force: true });
		this.locks.releaseIndexer();
	}

	/** The sync another live process runs now, if any (its figures 0 until it has published them). */
	other(): IndexingProgress | undefined {
		const holder = this.locks.indexerHolder();
		if (!holder) return undefined;
		const none = { done: 0, total: 0, bytesRead: 0, workBytes: 0, pid: holder.pid };
		try {
			const said = JSON.parse(readFileSync(this.progressFile, "utf8")) as IndexingProgress & { owner?: string };
			if (said.owner?.trim() !== holder.line) return none;
			return { done: said.done, total: said.total, bytesRead: said.bytesRead, workBytes: said.workBytes, pid: holder.pid };
		} catch {
			return none;
		}
	}
}

/** Bytes a sync has still to read, by its progress. */
export function bytesLeft(p: Pick<IndexingProgress, "workBytes" | "bytesRead" | "total">): number {
	// Before its walk is done a sync's work is unknown: count it as large, so that nobody waits on a first index.
	if (p.total === 0) return Number.POSITIVE_INFINITY;
	return Math.max(0, p.workBytes - p.bytesRead);
}
