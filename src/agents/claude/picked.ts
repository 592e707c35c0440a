/** Claude Code's folders among picked files: one project folder, or the folder that holds `projects/`. */

import { folderOf, inFolder } from "../../core/parse/layout.js";
import type { PickedFolders } from "../picked.js";
import { claudeProject, isClaudeProject, walkClaude } from "./layout.js";

export const claudePicked: PickedFolders = {
	async project({ dir, here, walk }) {
		if (!isClaudeProject(here)) return false;
		await claudeProject(dir, { root: folderOf(walk, dir), agent: "claude" }, walk);
		return true;
	},
	async own({ dir, here, walk, listing }) {
		const projects = inFolder(walk, dir, "projects");
		if (!here.dirs.includes("projects") || !listing(projects).dirs.some((p) => isClaudeProject(listing(inFolder(walk, projects, p)))))
			return [];
		await walk.attempt(projects, () => walkClaude(projects, { root: projects, agent: "claude" }, walk));
		return ["projects"];
	},
};
