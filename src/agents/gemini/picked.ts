/** Gemini CLI's folders among picked files: one project folder, the folder that holds `tmp/`, or a project's `chats/` alone. */

import { folderOf, inFolder } from "../../core/parse/layout.js";
import type { PickedAt, PickedFolders } from "../picked.js";
import { geminiProject, geminiProjects, isGeminiChats, walkGemini } from "./layout.js";

const isProject = ({ walk, listing }: PickedAt, dir: string) => isGeminiChats("chats", listing(inFolder(walk, dir, "chats")));

export const geminiPicked: PickedFolders = {
	// Its chats before 0.39 (`.json`), its sub-agents' chats, and what its layout reads beside them.
	takes: (path, name) =>
		(name.endsWith(".json") && (name.startsWith("session-") || /(^|\/)chats\/[^/]+\/[^/]+$/.test(path))) ||
		name === "projects.json" ||
		name === ".project_root",
	async project(at) {
		if (!isProject(at, at.dir)) return false;
		const tmp = folderOf(at.walk, at.dir);
		await geminiProject(at.dir, { root: tmp, agent: "gemini" }, await geminiProjects(folderOf(at.walk, tmp), at.walk), at.walk);
		return true;
	},
	async own(at) {
		const { dir, here, walk, listing } = at;
		const read: string[] = [];
		const tmp = inFolder(walk, dir, "tmp");
		if (here.dirs.includes("tmp") && listing(tmp).dirs.some((p) => isProject(at, inFolder(walk, tmp, p)))) {
			read.push("tmp");
			await walk.attempt(tmp, () => walkGemini(tmp, { root: tmp, agent: "gemini" }, walk));
		}
		if (dir === "" && isGeminiChats("chats", listing("chats"))) {
			// A project's chats/ picked alone.
			read.push("chats");
			await geminiProject("", { root: "", agent: "gemini" }, new Map(), walk);
		}
		return read;
	},
};
