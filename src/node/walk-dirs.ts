/** What every folder walk shares: listing a folder, and a file found before its stat. */

import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import type { SessionFileInfo, WalkedFolders } from "../core/index.js";

/** A file found by the walk, before its stat; a session rendered from a database comes with its stamps instead. */
export type Found = Omit<SessionFileInfo, "size" | "mtimeMs"> & Partial<Pick<SessionFileInfo, "size" | "mtimeMs">>;

/** Where found files go, and how a folder that cannot be listed is reported (the root is then incomplete, nothing is purged). */
export interface WalkSink {
	found: Found[];
	/** Run the listing of one folder; an error makes the root incomplete but the walk goes on. */
	attempt(dir: string, work: () => Promise<void>): Promise<void>;
	/** Every folder looked into, found or not (`WalkResult.folders`). */
	folders: WalkedFolders;
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
