/**
 * Where Aider's histories lie: `.aider.chat.history.md` in each project's folder, wherever the projects are. A root
 * is a folder of projects (`~/code` and the like by default), looked into to `AIDER_DEPTH` levels, past hidden folders and
 * `node_modules`; the project's folder is the file's.
 */

import { type Found, inFolder, type LayoutWalk } from "../../core/parse/layout.js";

const AIDER_HISTORY = ".aider.chat.history.md";

/** How deep under a root a project's folder may be (`~/code/team/project`). */
const AIDER_DEPTH = 3;

async function visit(dir: string, base: Omit<Found, "path">, walk: LayoutWalk, depth: number): Promise<void> {
	const { files, dirs } = await walk.list(dir);
	if (files.includes(AIDER_HISTORY)) walk.found.push({ ...base, path: inFolder(walk, dir, AIDER_HISTORY), cwd: dir });
	if (depth >= AIDER_DEPTH) return;
	for (const name of dirs) {
		if (name.startsWith(".") || name === "node_modules") continue;
		const sub = inFolder(walk, dir, name);
		await walk.attempt(sub, () => visit(sub, base, walk, depth + 1));
	}
}

/** Walk a folder of projects for their Aider histories. */
export function walkAider(root: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	return visit(root, base, walk, 0);
}
