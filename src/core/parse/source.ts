/** Where session files come from: a small interface the filesystem (src/node) and memory implement. */

import type { AgentKind } from "../../agents/registry.js";
import type { SessionArchive } from "./archive.js";

export type { AgentKind } from "../../agents/registry.js";

/** A session file as found by a walk. */
export interface SessionFileInfo {
	path: string;
	/** The session root the file was found under; a vanished file is purged only when its root was walked fully. */
	root: string;
	size: number;
	mtimeMs: number;
	/** Which agent wrote it (decides the resume command). Default "pi". */
	agent?: AgentKind;
	/** A top-level session, a sub-agent transcript (omp), or a gzipped archive (omp gc). Default "session". */
	kind?: SessionKind;
	/** For a sub-agent transcript: the session file that spawned it. */
	spawnedBy?: string;
	/** The project folder, when the walk knows it and the file may not say it (Gemini CLI's `tmp/<project>/.project_root`). */
	cwd?: string;
	/**
	 * A session an agent keeps as rows (OpenCode's database, its JSON tree), rendered as one document when read
	 * (`SessionSource.readDocument`): `size` and `mtimeMs` are stamps that change when the session does, not a length.
	 */
	rendered?: true;
}

export type SessionKind = "session" | "subagent" | "archived";

export type SkipReason = "oversized" | "tmp-folder" | "unreadable" | "index-full";

export interface SkippedFile {
	path: string;
	reason: SkipReason;
	detail?: string;
}

/** A sync that did not see everything: results come from the index as it stands and nothing is purged. */
export type SyncWarning =
	| { kind: "incomplete-walk"; roots: string[]; message: string }
	| { kind: "sync-failed"; error: string }
	| { kind: "archive-failed"; error: string }
	| { kind: "index-rebuilt"; reason: string; setAside?: string }
	| { kind: "index-near-ceiling"; indexBytes: number; limitBytes: number; message: string };

export interface WalkResult {
	files: SessionFileInfo[];
	skipped: SkippedFile[];
	/** Roots whose every folder was listed; files under other roots are never purged. */
	completeRoots: string[];
	/** Roots that do not exist (yet): nothing under them is purged, and a warning is given only if the index has files there. */
	missingRoots?: string[];
	warnings: SyncWarning[];
	/** The folders the walk looked into, for a host that watches them; sources that cannot say leave it out. */
	folders?: WalkedFolders;
}

/**
 * What a walk looked into: what a host watches to know that nothing a next walk would find has changed
 * (src/node/session-watch.ts).
 */
export interface WalkedFolders {
	/** Folders it listed, and each symbolic link it met (a change where one points touches nothing in its folder). */
	listed: string[];
	/** Folders it looked for and did not find. */
	absent: string[];
}

export interface SessionSource {
	/** Human-readable description, e.g. the folders walked. */
	describe(): string;
	/** The session roots; a session path outside them is refused. */
	roots(): string[];
	walk(): Promise<WalkResult>;
	/** Bytes [start, end) of a file. */
	read(path: string, start: number, end: number): Promise<Uint8Array>;
	/**
	 * At most `max` bytes of a file an agent keeps beside a session (a tool's output too long to inline), by its path
	 * relative to the session root; undefined when it cannot be read.
	 */
	readBeside?(root: string, relative: string, max: number): Promise<Uint8Array | undefined>;
	/** Agents the person left out: a sync forgets what the index holds of them. */
	leftOut?(): readonly AgentKind[];
	/** lookback's own copies of these files: kept as they are indexed, read back once a file is gone. */
	archive?: SessionArchive;
	/** The whole document of a `rendered` session (its length is known only once it is made). */
	readDocument?(path: string): Promise<Uint8Array>;
}

/** A source over files held in memory (tests, the browser): path → content. Root is "/". */
export function memorySource(files: Map<string, Uint8Array>, mtimes: Map<string, number> = new Map()): SessionSource {
	return {
		describe: () => `memory (${files.size} files)`,
		roots: () => ["/"],
		async walk() {
			const list: SessionFileInfo[] = [];
			for (const [path, bytes] of files) list.push({ path, root: "/", size: bytes.length, mtimeMs: mtimes.get(path) ?? 0 });
			return { files: list, skipped: [], completeRoots: ["/"], warnings: [] };
		},
		async read(path, start, end) {
			const bytes = files.get(path);
			if (!bytes) throw new Error(`no such file: ${path}`);
			return bytes.subarray(start, end);
		},
	};
}
