/**
 * Aider on this machine: the folders its projects are in (`LOOKBACK_AIDER_DIRS`, a list like PATH; else the home),
 * walked for `.aider.chat.history.md` (../layout.ts).
 */

import { homedir } from "node:os";
import { delimiter, resolve } from "node:path";
import { expandHome } from "../../../node/home.js";
import type { NodeAgent } from "../../node-agent.js";
import { walkAider } from "../layout.js";

export const aiderNode: NodeAgent = {
	roots({ env }) {
		const given = (env.LOOKBACK_AIDER_DIRS ?? "").split(delimiter).filter((d) => d.trim());
		const dirs = given.length > 0 ? given.map((d) => resolve(expandHome(d.trim()))) : [env.HOME || homedir()];
		return dirs.map((path) => ({ path, layout: "aider", agent: "aider" as const }));
	},
	walks: { aider: walkAider },
	sessionEndings: [{ ending: ".aider.chat.history.md", what: "an Aider chat history" }],
	env: ["LOOKBACK_AIDER_DIRS"],
};
