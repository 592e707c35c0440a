/**
 * The Node host's view of session files for the replies: a file's size now (the size limit) and a part of it
 * (snippets from unstored middles), read from lookback's archive once the agent removed the file.
 */

import { statSync } from "node:fs";
import type { HostFiles } from "../core/index.js";
import type { FileArchive } from "./archive-store.js";
import { readFileRange } from "./file-range.js";

/** A file's size now; none for a file that is not there (gone, or a session inside a database: its folder is a file, ENOTDIR). */
function sizeOnDisk(path: string): number | undefined {
	try {
		return statSync(path).size;
	} catch {
		return undefined;
	}
}

/** Session files on disk only (where no index, and so no archive, is at hand). */
export const diskFiles: HostFiles = {
	sizeOf: sizeOnDisk,
	readRange: readFileRange,
};

/** Session files on disk, and where one is gone, its copy in the archive. */
export function sessionFilesOf(archive: FileArchive): HostFiles {
	return {
		sizeOf: (path) => sizeOnDisk(path) ?? archive.sizeOf(path),
		readRange: (path, start, end) => readFileRange(path, start, end) ?? archive.readSync(path, start, end),
	};
}
