/** Continue's folders among picked files: its `sessions/` folder (known by its list, `sessions.json`). */

import type { PickedFolders } from "../picked.js";
import { walkContinue } from "./layout.js";

const SESSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;

export const continuePicked: PickedFolders = {
	takes: (path, name) => /(^|\/)sessions\/[^/]+$/.test(path) && (SESSION.test(name) || name === "sessions.json"),
	async project({ dir, here, walk }) {
		if (!/(^|\/)sessions$/.test(dir) || !here.files.includes("sessions.json") || !here.files.some((n) => SESSION.test(n))) return false;
		await walkContinue(dir, { root: dir, agent: "continue" }, walk);
		return true;
	},
};
