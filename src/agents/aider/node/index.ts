/**
 * Aider on this machine: the folders its projects are in (`LOOKBACK_AIDER_DIRS`, a list like PATH; else `~/code`,
 * `~/projects`, `~/src` and `~/work`, the usual homes of projects, as the hstry reader of Aider's histories looks
 * in), walked for `.aider.chat.history.md` (../layout.ts). Never the whole home: a host watches the folders a walk
 * lists, and the home holds lookback's own index.
 */

import { homedir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { expandHome } from "../../../node/home.js";
import type { NodeAgent } from "../../node-agent.js";
import { walkAider } from "../layout.js";

/** Where projects usually are, under the home. */
const PROJECT_HOMES = ["code", "projects", "src", "work"];

export const aiderNode: NodeAgent = {
	roots({ env }) {
		const given = (env.LOOKBACK_AIDER_DIRS ?? "").split(delimiter).filter((d) => d.trim());
		const home = env.HOME || homedir();
		const dirs = given.length > 0 ? given.map((d) => resolve(expandHome(d.trim()))) : PROJECT_HOMES.map((d) => join(home, d));
		return dirs.map((path) => ({ path, layout: "aider", agent: "aider" as const }));
	},
	walks: { aider: walkAider },
	sessionEndings: [{ ending: ".aider.chat.history.md", what: "an Aider chat history" }],
	env: ["LOOKBACK_AIDER_DIRS"],
};
