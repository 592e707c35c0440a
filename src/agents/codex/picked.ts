/** Codex's folders among picked files: its home (`sessions/`, `archived_sessions/`), or rollouts picked without it. */

import { inFolder } from "../../core/parse/layout.js";
import type { PickedFolders } from "../picked.js";
import { codexArchived, isRollout, rollouts, walkCodex } from "./layout.js";

const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

export const codexPicked: PickedFolders = {
	takes: (_path, name) => name.endsWith(".jsonl.zst"),
	async own({ dir, here, walk, hasFileUnder }) {
		const dated = (d: string) => (d === "sessions" || d === "archived_sessions") && hasFileUnder(inFolder(walk, dir, d), isRollout);
		if (!here.dirs.some(dated)) return [];
		await walk.attempt(dir, () => walkCodex(dir, { root: dir, agent: "codex" }, walk));
		return ["sessions", "archived_sessions"];
	},
	// Rollouts picked without their home (a dated folder, or single files): Codex's by their names.
	async loose({ dir, here, walk }) {
		if (!here.files.some(isRollout)) return;
		const base = { root: dir, agent: "codex" as const };
		if (nameOf(dir) === "archived_sessions") await codexArchived(dir, base, walk);
		else for (const name of rollouts(here.files)) walk.found.push({ ...base, path: inFolder(walk, dir, name) });
	},
};
