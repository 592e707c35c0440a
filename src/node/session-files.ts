/** The Node host's view of session files for the replies: a file's size now (the size limit) and a part of it (snippets from unstored middles). */

import { statSync } from "node:fs";
import type { HostFiles } from "../core/index.js";
import { readFileRange } from "./file-range.js";

export const sessionFiles: HostFiles = {
	sizeOf(path) {
		// A session inside a database (`<opencode.db>/<id>`) is no file: its path's folder is one (ENOTDIR).
		try {
			return statSync(path).size;
		} catch {
			return undefined;
		}
	},
	readRange: readFileRange,
};
