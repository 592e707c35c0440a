/**
 * The walk of the session folders on disk: each root in its agent's layout, every session file found and stat'ed.
 * Run in the caller's thread, by the file source's `walk` (file-source.ts); a watching host's later walks may be
 * made again from this one's result instead (walk-again.ts).
 */

import { statSync } from "node:fs";
import { join, sep } from "node:path";
// From their own modules, not the core's barrel: they are read as this module loads (AGENT_WALKS), and a loader that
// runs modules as CommonJS (Pi's jiti, when dist/ is older than the sources) may hand out the barrel half made.
import { walkClaude } from "../agents/claude/layout.js";
import { walkCodex } from "../agents/codex/layout.js";
import { walkGemini } from "../agents/gemini/layout.js";
import { walkOpencode } from "../agents/opencode/node/walk.js";
import {
	type AgentKind,
	isTmpSessionFolder,
	type SessionFileInfo,
	type SkippedFile,
	type SyncWarning,
	type WalkedFolders,
	type WalkResult,
} from "../core/index.js";
import { diskWalk, type Found, listDir, type WalkSink } from "./walk-dirs.js";

/** The walk of an agent with a layout of its own, under its root (the layouts in core, shared with the page's picked folders). */
type AgentWalk = (root: string, base: Omit<Found, "path">, sink: WalkSink) => Promise<void>;

const AGENT_WALKS: Record<AgentLayout, AgentWalk> = { claude: walkClaude, codex: walkCodex, gemini: walkGemini, opencode: walkOpencode };

/** Layouts of the agents that keep their sessions their own way. */
type AgentLayout = "claude" | "codex" | "gemini" | "opencode";

export interface SessionRoot {
	path: string;
	/**
	 * `nested`: one folder per project (Pi's and omp's layout, loose files too); `flat`: files directly inside
	 * (a custom session dir); `archive`: omp's `archive/sessions/**` of gzipped sessions.
	 */
	layout: "nested" | "flat" | "archive" | AgentLayout;
	/** Which agent writes here (default "pi"). */
	agent?: AgentKind;
}

/**
 * Files stat'ed between two yields to the event loop. Synchronous stat is about twice as fast as the
 * promise API here (a no-change sync of 15,000 files is mostly stat), and yielding keeps a TUI responsive.
 */
const STAT_BATCH = 500;
/** How deep sub-agent folders (omp: `<session>/<agent>.jsonl`, and theirs) and archive buckets are followed. */
const MAX_DEPTH = 4;

async function statAll(found: Found[], files: SessionFileInfo[], skipped: SkippedFile[]): Promise<void> {
	for (let i = 0; i < found.length; i++) {
		if (i > 0 && i % STAT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
		const f = found[i];
		// A session rendered from rows comes stamped by its walk: there is no file to stat. The others are stamped in
		// place, not copied: a copy of each was a third of this loop's time in a one-shot command (no optimising tier).
		if (f.size === undefined || f.mtimeMs === undefined) {
			try {
				const st = statSync(f.path);
				if (!st.isFile()) continue;
				f.size = st.size;
				f.mtimeMs = st.mtimeMs;
			} catch (error) {
				skipped.push({ path: f.path, reason: "unreadable", detail: String((error as Error).message) });
				continue;
			}
		}
		files.push(f as SessionFileInfo);
	}
}

async function jsonlIn(dir: string, folders: WalkedFolders): Promise<string[]> {
	return (await listDir(dir, folders)).files.filter((n) => n.endsWith(".jsonl")).map((n) => join(dir, n));
}

/**
 * Sessions of one project folder, and omp's sub-agent transcripts: a folder named like a session file
 * (`<stem>/` beside `<stem>.jsonl`) holds the transcripts of the agents that session spawned.
 */
async function projectFolder(dir: string, base: Omit<Found, "path">, sink: WalkSink, depth = 0, spawnedBy?: string): Promise<void> {
	const { files, dirs } = await listDir(dir, sink.folders);
	const sessions = new Set(files.filter((n) => n.endsWith(".jsonl")));
	for (const name of sessions) {
		// dir is already normalised: a plain concatenation is far cheaper than join() over thousands of files
		const path = `${dir}${sep}${name}`;
		sink.found.push(spawnedBy ? { ...base, path, kind: "subagent", spawnedBy } : { ...base, path });
	}
	if (depth >= MAX_DEPTH) return;
	for (const sub of dirs) {
		if (sessions.has(`${sub}.jsonl`)) await projectFolder(join(dir, sub), base, sink, depth + 1, join(dir, `${sub}.jsonl`));
	}
}

async function archiveFolder(dir: string, base: Omit<Found, "path">, sink: WalkSink, depth = 0): Promise<void> {
	const { files, dirs } = await listDir(dir, sink.folders);
	for (const name of files) if (name.endsWith(".jsonl.gz")) sink.found.push({ ...base, path: join(dir, name), kind: "archived" });
	if (depth < MAX_DEPTH) for (const sub of dirs) await archiveFolder(join(dir, sub), base, sink, depth + 1);
}

/** Walk one root; errors inside it make it incomplete but do not stop the walk. */
async function walkRoot(root: SessionRoot, result: WalkResult): Promise<void> {
	const found: Found[] = [];
	const folders = (result.folders ??= { listed: [], absent: [] });
	// A root that names no agent (a folder given by hand) leaves it to each file's first line.
	const base = { root: root.path, ...(root.agent ? { agent: root.agent } : {}) };
	let complete = true;
	const problems: string[] = [];
	const attempt = async (dir: string, work: () => Promise<void>) => {
		try {
			await work();
		} catch (error) {
			complete = false;
			problems.push(`${dir}: ${(error as Error).message}`);
		}
	};
	const sink = diskWalk(found, folders, attempt);
	try {
		if (root.layout === "archive") {
			await archiveFolder(root.path, base, sink);
		} else if (root.layout in AGENT_WALKS) {
			await AGENT_WALKS[root.layout as AgentLayout](root.path, base, sink);
		} else {
			const top = await listDir(root.path, folders);
			for (const name of top.files) if (name.endsWith(".jsonl")) found.push({ ...base, path: join(root.path, name) });
			if (root.layout === "nested") {
				for (const folder of top.dirs) {
					const dir = join(root.path, folder);
					if (isTmpSessionFolder(folder)) {
						await attempt(dir, async () => {
							for (const p of await jsonlIn(dir, folders)) result.skipped.push({ path: p, reason: "tmp-folder" });
						});
					} else await attempt(dir, () => projectFolder(dir, base, sink));
				}
			}
		}
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") {
			(result.missingRoots ??= []).push(root.path);
			// Looked for before any listing by some walks (a database file or its folder).
			folders.absent.push(root.path);
			return;
		}
		complete = false;
		problems.push(`${root.path}: ${(error as Error).message}`);
	}
	await statAll(found, result.files, result.skipped);
	if (complete) result.completeRoots.push(root.path);
	else
		result.warnings.push({ kind: "incomplete-walk", roots: [root.path], message: problems.slice(0, 3).join("; ") } satisfies SyncWarning);
}

/** Walk the roots in order, into one result. */
export async function walkRoots(roots: readonly SessionRoot[]): Promise<WalkResult> {
	const result: WalkResult = { files: [], skipped: [], completeRoots: [], warnings: [] };
	for (const root of roots) await walkRoot(root, result);
	return result;
}
