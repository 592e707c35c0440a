/**
 * A walk made again from the last one, only the files named stat'ed anew: what a host that watches the session
 * folders (session-watch.ts) asks for when all it saw change since a walk were those files' contents — no file
 * created, removed or renamed, no folder. The rest of the last walk stands as it was: its listings, and the size
 * and time of every other file, which nothing changed.
 */

import { statSync } from "node:fs";
import { dirname, sep } from "node:path";
import type { WalkResult } from "../core/index.js";

/**
 * The last walk with these files stat'ed again; undefined when one of them holds sessions rendered from rows (then
 * walk it all): such a session, or a file beside such sessions' source (OpenCode's database and its -wal). Any
 * other file the last walk did not take is left out: only its contents changed, so it was there at that walk,
 * which passed it over by its name or place (Codex's history.jsonl beside its sessions' folder, written at every
 * prompt, made every search after one walk every folder again).
 */
export function walkAgain(last: WalkResult, changed: Iterable<string>): WalkResult | undefined {
	const files = [...last.files];
	const at = new Map(files.map((f, i) => [f.path, i]));
	for (const path of changed) {
		const i = at.get(path);
		if (i === undefined) {
			// OpenCode's sessions lie at <database>/<id>: a file in the folder that holds them may be their rows.
			const folder = dirname(path) + sep;
			if (files.some((f) => f.rendered && f.path.startsWith(folder))) return undefined;
			continue;
		}
		// A session rendered from rows (OpenCode's) has no file of its own: what changed is its database.
		if (files[i].rendered) return undefined;
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
