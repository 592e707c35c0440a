/** GitHub Copilot CLI's folders among picked files: its `session-state/` folder, picked or in the folder that holds it. */

import { inFolder } from "../../core/parse/layout.js";
import type { PickedAt, PickedFolders } from "../picked.js";
import { walkCopilot } from "./layout.js";

/** `session-state/` holds folders of sessions, each with its `events.jsonl`. */
const isSessionState = ({ walk, listing }: PickedAt, dir: string) =>
	listing(dir).dirs.some((d) => listing(inFolder(walk, dir, d)).files.includes("events.jsonl"));

export const copilotPicked: PickedFolders = {
	async project(at) {
		if (!at.dir.endsWith("session-state") || !isSessionState(at, at.dir)) return false;
		await walkCopilot(at.dir, { root: at.dir, agent: "copilot" }, at.walk);
		return true;
	},
	async own(at) {
		const state = inFolder(at.walk, at.dir, "session-state");
		if (!at.here.dirs.includes("session-state") || !isSessionState(at, state)) return [];
		await at.walk.attempt(state, () => walkCopilot(state, { root: state, agent: "copilot" }, at.walk));
		return ["session-state"];
	},
};
