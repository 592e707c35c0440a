/**
 * One index per Pi (or omp) process, shared by every extension instance (Pi makes a new instance per session):
 * a HostIndex (src/node/host-index.ts), read in Pi's process and written only by its indexer process. Nothing
 * heavy is loaded here: session_start starts the indexer (a child process) and nothing else; the engine and
 * the index open in Pi's process with the first search. A long sync shows on Pi's status line.
 */

import { piAgentDir } from "../agents/pi/node/paths.js";
import { DEFAULTS, thousands } from "../core/defaults.js";
import { HostIndex } from "../node/host-index.js";
import { indexPathOf } from "../node/index-path.js";
import type { IndexingProgress } from "../node/indexer-slot.js";
import { bytesLeft, indexComplete } from "../node/indexer-slot.js";
import { loadTool } from "./tool-loader.js";

/** The part of Pi's and omp's `ctx.ui` the status line needs. */
interface StatusLine {
	setStatus(key: string, text: string | undefined): void;
}

interface Shared {
	host?: HostIndex;
	/**
	 * A background sync this process wants but has not started (print mode, `startBackgroundIndex` with `defer`):
	 * the session's folder, or null for none. It starts with the first use of the index or at the session's end.
	 */
	deferred?: string | null;
	/** The status line of the session now running (each session's ctx is valid until its shutdown). */
	ui?: StatusLine;
	shown?: boolean;
}

// Pi loads extension modules afresh for every session (jiti without a module cache), so module state is per
// session; the index and its indexer are kept on the process instead.
const KEY = Symbol.for("lookback.sharedIndex");
const holder = globalThis as { [KEY]?: Shared };
const shared: Shared = (holder[KEY] ??= {});

const STATUS_KEY = "lookback";

/** `lookback: indexing 1,204/2,671 files` while a long sync runs (a short one never shows). */
function showProgress(p: IndexingProgress, elsewhere: boolean): void {
	const long = bytesLeft(p) > DEFAULTS.syncWaitBytes || shared.shown === true;
	if (!long || !shared.ui) return;
	shared.shown = true;
	const where = elsewhere ? " (in another lookback process)" : "";
	shared.ui.setStatus(STATUS_KEY, `lookback: indexing ${thousands(p.done)}/${thousands(p.total)} files${where}`);
}

function clearProgress(): void {
	if (shared.shown) shared.ui?.setStatus(STATUS_KEY, undefined);
	shared.shown = false;
}

/** The index file this Pi process uses, as the CLI's (index-path.ts): `LOOKBACK_INDEX` is opened only as a lookback index. */
function piIndexPath(): string {
	return indexPathOf({});
}

/**
 * The index of this Pi process, made on first use with Pi's session roots (plus the current session's folder when
 * it is a custom one). A background sync deferred by session_start starts now, before what is asked of it.
 */
export function hostIndex(sessionDir?: string): HostIndex {
	if (shared.deferred !== undefined) {
		const dir = shared.deferred ?? sessionDir;
		shared.deferred = undefined;
		const host = hostIndex(dir);
		host.background();
		return host;
	}
	shared.host ??= (() => {
		const agentSessions = `${piAgentDir()}/sessions`;
		const extra = sessionDir && !sessionDir.startsWith(agentSessions) ? [sessionDir] : [];
		return new HostIndex(
			{ sessionsDirs: extra },
			{
				onProgress: showProgress,
				onSynced: clearProgress,
				open: async (options) => (await loadTool()).openNodeIndex(options),
				calls: async () => (await loadTool()).TOOL_CALLS,
			},
		);
	})();
	return shared.host;
}

/**
 * session_start: index what is new in the background, on the indexer process; progress goes to this session's
 * status line. With `defer` (a run without a UI: print and JSON mode) the indexer starts with the first search
 * or at the run's end instead: a run that never searches has its whole life to itself (its start-up and its
 * answer are CPU-bound, and an indexer starting beside them took a core of a 2-core machine), and what is new
 * is indexed all the same, after it.
 */
export function startBackgroundIndex(sessionDir: string | undefined, ui: StatusLine | undefined, defer = false): void {
	shared.ui = ui;
	if (defer && !shared.host) shared.deferred = sessionDir ?? null;
	else hostIndex(sessionDir).background();
}

/** session_shutdown: this session's status line is no longer ours to write; a sync goes on in the indexer. */
export function endSession(): void {
	clearProgress();
	shared.ui = undefined;
	if (shared.deferred === undefined) return;
	// A deferred sync starts now, the indexer process going on after this process exits — unless no first index is
	// left to finish: then the next search syncs what this run wrote, and this exit pays no spawn (about 8 ms of a
	// print-mode run, and the next run's search no indexer still at work).
	if (indexComplete(piIndexPath())) shared.deferred = undefined;
	else hostIndex();
}
