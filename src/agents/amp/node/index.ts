/** Amp on this machine: its threads folder, walked with its layout (../layout.ts). */

import type { NodeAgent } from "../../node-agent.js";
import { walkAmp } from "../layout.js";
import { ampThreadsDir } from "./paths.js";

export const ampNode: NodeAgent = {
	roots: ({ env }) => [{ path: ampThreadsDir(env), layout: "amp", agent: "amp" }],
	walks: { amp: walkAmp },
	sessionEndings: [{ ending: ".json", what: "an Amp thread" }],
	env: ["XDG_DATA_HOME"],
};
