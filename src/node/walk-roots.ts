/**
 * The walk of the session folders on disk: each root in its agent's layout, every session file found and stat'ed.
 * Run in the caller's thread, by the file source's `walk` (file-source.ts); a watching host's later walks may be
 * made again from this one's result instead (walk-again.ts).
 */

import { statSync } from "node:fs";
import { layoutWalk } from "../agents/node-registry.js";
import type { AgentKind, SessionFileInfo, SkippedFile, SyncWarning, WalkResult } from "../core/index.js";
import { diskWalk, type Found } from "./walk-dirs.js";

export interface SessionRoot {
	path: string;
	/**
	 * The walk its files are found by, named by the agent that declares it (`NodeAgent.walks`): `nested`, one folder
	 * per project (Pi's and omp's layout, loose files too); `flat`, files directly inside (a custom session dir);
	 * `archive`, omp's `archive/sessions/**` of gzipped sessions; `claude`, `codex`, `gemini`, `opencode`, each that
	 * agent's own.
	 */
	layout: string;
	/** Which agent writes here (none: each file's first line says; Pi's when it cannot). */
	agent?: AgentKind;
}

/**
 * Files stat'ed between two yields to the event loop. Synchronous stat is about twice as fast as the
 * promise API here (a no-change sync of 15,000 files is mostly stat), and yielding keeps a TUI responsive.
 */
const STAT_BATCH = 500;
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
	const sink = diskWalk(found, result.skipped, folders, attempt);
	try {
		const walk = layoutWalk(root.layout);
		if (!walk) throw new Error(`no agent walks the layout "${root.layout}"`);
		await walk(root.path, base, sink);
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
