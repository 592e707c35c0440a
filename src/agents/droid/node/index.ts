/** Factory Droid on this machine: `~/.factory/sessions` (`FACTORY_HOME_OVERRIDE` stands for the home it is under). */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { expandHome } from "../../../node/home.js";
import type { NodeAgent } from "../../node-agent.js";
import { walkDroid } from "../layout.js";

export const droidNode: NodeAgent = {
	roots({ env }) {
		const home = env.FACTORY_HOME_OVERRIDE ? resolve(expandHome(env.FACTORY_HOME_OVERRIDE)) : env.HOME || homedir();
		return [{ path: join(home, ".factory", "sessions"), layout: "droid", agent: "droid" }];
	},
	walks: { droid: walkDroid },
	sessionEndings: [{ ending: ".jsonl" }],
	env: ["FACTORY_HOME_OVERRIDE"],
};
