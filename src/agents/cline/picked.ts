/** Cline's folders among picked files: its `sessions/` folder, each session a folder holding `<id>.messages.json`. */

import { inFolder } from "../../core/parse/layout.js";
import type { PickedFolders } from "../picked.js";
import { walkCline } from "./layout.js";

export const clinePicked: PickedFolders = {
	takes: (_path, name) => name.endsWith(".messages.json"),
	async project({ dir, here, walk, listing }) {
		if (!/(^|\/)sessions$/.test(dir) || !here.dirs.some((d) => listing(inFolder(walk, dir, d)).files.includes(`${d}.messages.json`)))
			return false;
		await walkCline(dir, { root: dir, agent: "cline" }, walk);
		return true;
	},
};
