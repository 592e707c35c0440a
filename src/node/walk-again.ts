/**
 * A walk made again from the last one, only the files named stat'ed anew: what a host that watches the session
 * folders (session-watch.ts) asks for when all it saw change since a walk were those files' contents — no file
 * created, removed or renamed, no folder. The rest of the last walk stands as it was: its listings, and the size
 * and time of every other file, which nothing changed.
 */

import { statSync } from "node:fs";
import type { WalkResult } from "../core/index.js";

/** The last walk with these files stat'ed again; undefined when one is not a file it found (then walk it all). */
export function walkAgain(last: WalkResult, changed: Iterable<string>): WalkResult | undefined {
	const files = [...last.files];
	const at = new Map(files.map((f, i) => [f.path, i]));
	for (const path of changed) {
		const i = at.get(path);
		// A session rendered from rows (OpenCode's) has no file of its own: what changed is its database.
		if (i === undefined || files[i].rendered) return undefined;
		let size: number;
		let mtimeMs: number;
		try {
			const st = statSync(path);
			if (!st.isFile()) return undefined;
			({ size, mtimeMs } = st);
		} catch {
			return undefined;
		}
		files[i] = { ...files[i], size, mtimeMs };
	}
	return { ...last, files };
}
