/**
 * One index per Pi process, shared by every extension instance (Pi makes a new instance per session):
 * opened once, indexed in the background from session_start, synced lazily before searches.
 */

import { statSync } from "node:fs";
import { DEFAULTS, type SyncProgress, type SyncReport, type SyncState, syncState } from "../core/index.js";
import { type NodeIndex, openNodeIndex } from "../node/open.js";
import { piAgentDir } from "../node/paths.js";

interface Shared {
	opened?: Promise<NodeIndex>;
	syncing?: Promise<SyncReport>;
	stop?: AbortController;
	progress?: SyncProgress;
	lastReport?: SyncReport;
}

// Pi loads extension modules afresh for every session (jiti without a module cache), so module state is per
// session; the index and its engine (sql.js initialises once per process) are kept on the process instead.
const KEY = Symbol.for("lookback.sharedIndex");
const holder = globalThis as { [KEY]?: Shared };
const shared: Shared = (holder[KEY] ??= {});

/** The index, opened on first use with Pi's session roots (plus the current session's folder when it is a custom one). */
export function sharedIndex(sessionDir?: string): Promise<NodeIndex> {
	shared.opened ??= (() => {
		const agentSessions = `${piAgentDir()}/sessions`;
		const extra = sessionDir && !sessionDir.startsWith(agentSessions) ? [sessionDir] : [];
		return openNodeIndex({ sessionsDirs: extra, indexPath: process.env.LOOKBACK_INDEX || undefined });
	})();
	return shared.opened;
}

/** Start a sync unless one runs; resolves with its report. */
export function startSync(opened: NodeIndex): Promise<SyncReport> {
	if (shared.syncing) return shared.syncing;
	const stop = (shared.stop = new AbortController());
	shared.syncing = opened.index
		.sync(opened.source, { onProgress: (p) => (shared.progress = p), signal: stop.signal })
		.then((report) => {
			shared.lastReport = report;
			return report;
		})
		.finally(() => {
			shared.syncing = undefined;
			shared.progress = undefined;
			shared.stop = undefined;
		});
	return shared.syncing;
}

/** Wait for a running background index, at most `waitMs`; whether it finished. */
export async function awaitBackgroundIndex(waitMs: number = DEFAULTS.indexWaitMs): Promise<boolean> {
	const running = shared.syncing;
	if (!running) return true;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
	const done = await Promise.race([
		running.then(
			() => true as const,
			() => true as const,
		),
		timeout,
	]);
	clearTimeout(timer);
	return done;
}

/**
 * Sync before a search. A background index still running after a short wait is not waited for: the
 * answer comes from what is indexed so far and says how far indexing has got.
 */
export async function syncBeforeSearch(opened: NodeIndex, waitMs: number = DEFAULTS.indexWaitMs): Promise<SyncState> {
	if (shared.syncing && !(await awaitBackgroundIndex(waitMs))) {
		const p = shared.progress;
		return { indexing: { done: p?.done ?? 0, total: p?.total ?? 0 }, ...syncState(shared.lastReport) };
	}
	return syncState(await startSync(opened));
}

/** Files skipped as oversized by the last sync (to explain an id that is not in the index). */
export function oversizedFiles(): string[] {
	return (shared.lastReport?.skippedFiles ?? []).filter((f) => f.reason === "oversized").map((f) => f.path);
}

export function fileSize(path: string): number | undefined {
	try {
		return statSync(path).size;
	} catch {
		return undefined;
	}
}

/**
 * Stop a running sync at its next file (at session shutdown): every batch it finished is already
 * committed, so this waits only for the file at hand and its small commit, never for a whole index.
 */
export async function stopSync(): Promise<void> {
	shared.stop?.abort();
	await shared.syncing?.catch(() => undefined);
}
