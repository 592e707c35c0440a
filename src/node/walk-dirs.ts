/** What every folder walk on disk shares: listing a folder, reading a small file beside the sessions, a file found before its stat. */

import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import type { Found, LayoutWalk, SkippedFile, WalkedFolders } from "../core/index.js";

export type { Found } from "../core/index.js";

/** Where found files go, and how a folder that cannot be listed is reported (the root is then incomplete, nothing is purged). */
export interface WalkSink extends LayoutWalk {
	/** Every folder looked into, found or not (`WalkResult.folders`). */
	folders: WalkedFolders;
	/** A session file found and passed over on purpose (a temporary working directory's), named in the report. */
	skip(file: SkippedFile): void;
}

/**
 * Synchronous listing (far cheaper than the promise API over thousands of folders); the walk yields between stat
 * batches. The folder goes into `folders`, listed or absent, and so does each symbolic link in it.
 */
export async function listDir(dir: string, folders: WalkedFolders): Promise<{ files: string[]; dirs: string[] }> {
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") folders.absent.push(dir);
		throw error;
	}
	folders.listed.push(dir);
	const files: string[] = [];
	const dirs: string[] = [];
	for (const e of entries) {
		if (e.isDirectory()) dirs.push(e.name);
		else if (e.isFile()) files.push(e.name);
		else if (e.isSymbolicLink()) {
			files.push(e.name);
			folders.listed.push(join(dir, e.name));
		}
	}
	return { files, dirs };
}

/** A walk on disk into `found` (and `skipped`), its folders noted in `folders`; `attempt` decides what an error does to the root. */
export function diskWalk(found: Found[], skipped: SkippedFile[], folders: WalkedFolders, attempt: WalkSink["attempt"]): WalkSink {
	return {
		found,
		folders,
		attempt,
		skip: (file) => skipped.push(file),
		sep,
		list: (dir) => listDir(dir, folders),
		readText: async (path) => {
			try {
				return readFileSync(path, "utf8");
			} catch {
				return undefined;
			}
		},
	};
}
