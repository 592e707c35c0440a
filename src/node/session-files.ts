/**
 * The Node host's view of session files for the replies: a file's size now (the size limit) and a part of it
 * (snippets from unstored middles), read from lookback's archive once the agent removed the file.
 */

import { statSync } from "node:fs";
import type { HostFiles } from "../core/index.js";
import type { FileArchive } from "./archive-store.js";
import { readFileRange } from "./file-range.js";

/** Session files on disk only (where no index, and so no archive, is at hand). */
export const diskFiles: HostFiles = {
	sizeOf: (path) => statSync(path, { throwIfNoEntry: false })?.size,
	readRange: readFileRange,
};

/** Session files on disk, and where one is gone, its copy in the archive. */
export function sessionFilesOf(archive: FileArchive): HostFiles {
	return {
		sizeOf: (path) => statSync(path, { throwIfNoEntry: false })?.size ?? archive.sizeOf(path),
		readRange: (path, start, end) => readFileRange(path, start, end) ?? archive.readSync(path, start, end),
	};
}
