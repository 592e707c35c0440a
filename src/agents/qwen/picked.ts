/** Qwen Code's folders among picked files: one project folder (its `chats/` and `subagents/`), or the `projects/` folder. */

import { folderOf, inFolder } from "../../core/parse/layout.js";
import type { PickedAt, PickedFolders } from "../picked.js";
import { qwenProject, walkQwen } from "./layout.js";

const CHAT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

/** A project folder holds `chats/` of chats named by their session's uuid (Gemini CLI's are `session-….jsonl`). */
const isProject = ({ walk, listing }: PickedAt, dir: string) => listing(inFolder(walk, dir, "chats")).files.some((n) => CHAT.test(n));

export const qwenPicked: PickedFolders = {
	async project(at) {
		if (!isProject(at, at.dir)) return false;
		await qwenProject(at.dir, { root: folderOf(at.walk, at.dir), agent: "qwen" }, at.walk);
		return true;
	},
	async own(at) {
		const { dir, here, walk, listing } = at;
		const projects = inFolder(walk, dir, "projects");
		if (!here.dirs.includes("projects") || !listing(projects).dirs.some((p) => isProject(at, inFolder(walk, projects, p)))) return [];
		await walk.attempt(projects, () => walkQwen(projects, { root: projects, agent: "qwen" }, walk));
		return ["projects"];
	},
};
