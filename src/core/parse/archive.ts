/**
 * lookback's own copies of session files, the second source of the index: what a source returned for each file
 * as it was indexed, kept after the agent removed the file. The node layer keeps them on disk
 * (src/node/archive-store.ts); the sync decides what to keep and reads a gone file's bytes back from here.
 */

import type { AgentKind, SessionFileInfo, SessionKind } from "./source.js";

/** What the archive holds of one file: its bytes as of its last sync, and what the walk said of it. */
export interface ArchivedFile {
	path: string;
	root: string;
	agent?: AgentKind;
	kind?: SessionKind;
	spawnedBy?: string;
	cwd?: string;
	/** Bytes of the source held: its size when last kept (a session rendered from rows: the length of its document). */
	size: number;
	/** Its modification time then (whole milliseconds). */
	mtimeMs: number;
	/**
	 * Only for a session an agent keeps as rows (OpenCode's): the walk's stamp of its rows when kept (its
	 * `SessionFileInfo.size`, which counts messages, not bytes); its copy is the document the index parsed.
	 */
	rowsStamp?: number;
	/** The session id the index read from it, when it had one. */
	sessionId?: string;
	/** When a sync found the source gone (epoch ms); undefined while it is there. */
	goneAt?: number;
}

/** Sessions deliberately forgotten (`lookback forget`): never indexed again, by path or by session id. */
export interface Forgotten {
	paths: ReadonlySet<string>;
	sessionIds: ReadonlySet<string>;
}

export interface ArchiveState {
	files: ReadonlyMap<string, ArchivedFile>;
	forgotten: Forgotten;
}

/** How one file's copy was brought up to date. */
export interface KeepResult {
	how: "unchanged" | "appended" | "stored";
	/** Bytes of the source read, and bytes written to the archive. */
	bytesRead: number;
	bytesWritten: number;
}

/** The bytes a copy is made of: the file's own, or for a session rendered from rows its document. */
export interface KeptBytes {
	size: number;
	read(start: number, end: number): Promise<Uint8Array>;
}

/** What the index says of a file as it is kept. */
export interface KeptFacts {
	sessionId?: string;
	agent?: AgentKind;
}

export interface SessionArchive {
	describe(): string;
	/** Whether copies are kept; false: the archive is turned off, and only its forgotten sessions count. */
	readonly keeping: boolean;
	/** What the archive holds now (read again: another process may have written since). */
	state(): Promise<ArchiveState>;
	/** Take the archive's writer lock for a batch of writes; false when another process kept it past the wait. */
	begin(): Promise<boolean>;
	/**
	 * Queue bringing the copy of a file up to date with `bytes`: only the new bytes when the file only grew, the
	 * whole file again when it was rewritten (the earlier copy kept until the new one is complete), and a session
	 * rendered from rows whole whenever its rows changed (it grows whole, not by appends). Resolves once done;
	 * the batch is durable only after `commit`.
	 */
	keep(file: SessionFileInfo, bytes: KeptBytes, facts: KeptFacts): Promise<KeepResult>;
	/** Note that a file's source went (`at`) or came back (undefined). */
	markGone(path: string, at: number | undefined): void;
	/** Make the batch's copies and notes durable, then release the lock. */
	commit(): Promise<void>;
	/** Release the lock without writing the batch's notes (its copies are ignored until kept again). */
	release(): Promise<void>;
	/** Bytes [start, end) of an archived file, as its source returned them (cut at the bytes held). */
	read(path: string, start: number, end: number): Promise<Uint8Array>;
	/**
	 * A token of the archive and of the index it serves as they are now (which files, how long, how many commits),
	 * taken before a sync reads what the index holds: a later token differs once either was written. Optional: an
	 * archive without it is read at every sync.
	 */
	mark?(): string | undefined;
	/**
	 * Say that a sync read the archive's state under `mark` and found nothing to do, the walk as `walked` says
	 * (sync/in-step.ts): every file the index holds had its current copy, and the archive held nothing to index.
	 */
	noteInStep?(mark: string, walked: string): void;
	/** Whether the last `noteInStep` was under this mark and walk: nothing of the archive or the index changed since. */
	inStep?(mark: string, walked: string): boolean;
}

/**
 * Whether a copy is of the file as the walk finds it now: the same modification time and the same size, or for a
 * session rendered from rows the same stamp of its rows (its document's length is known only once it is made).
 */
export function keptCurrent(kept: ArchivedFile, file: SessionFileInfo): boolean {
	if (kept.mtimeMs !== Math.floor(file.mtimeMs)) return false;
	return file.rendered ? kept.rowsStamp === file.size : kept.rowsStamp === undefined && kept.size === file.size;
}

/** A file's name without the compression suffix: the same session moved (omp's gc, Codex's archive) keeps it. */
export function sessionStem(path: string): string {
	return (path.split(/[\\/]/).pop() ?? path).replace(/\.(gz|zst)$/, "");
}
