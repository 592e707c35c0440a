/** What every folder walk shares: listing a folder, and a file found before its stat. */

import { readdirSync } from "node:fs";
import type { SessionFileInfo } from "../core/index.js";

/** A file found by the walk, before its stat; a session rendered from a database comes with its stamps instead. */
export type Found = Omit<SessionFileInfo, "size" | "mtimeMs"> & Partial<Pick<SessionFileInfo, "size" | "mtimeMs">>;

/** Where found files go, and how a folder that cannot be listed is reported (the root is then incomplete, nothing is purged). */
export interface WalkSink {
	found: Found[];
	/** Run the listing of one folder; an error makes the root incomplete but the walk goes on. */
	attempt(dir: string, work: () => Promise<void>): Promise<void>;
}

/** Synchronous listing (far cheaper than the promise API over thousands of folders); the walk yields between stat batches. */
export async function listDir(dir: string): Promise<{ files: string[]; dirs: string[] }> {
	const entries = readdirSync(dir, { withFileTypes: true });
	return {
		files: entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name),
		dirs: entries.filter((e) => e.isDirectory()).map((e) => e.name),
	};
}
