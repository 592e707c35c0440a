/** Continue on this machine: `<continue dir>/sessions`, walked with its layout (../layout.ts). */

import { join } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { walkContinue } from "../layout.js";
import { continueDir } from "./paths.js";

export const continueNode: NodeAgent = {
	roots: ({ env }) => [{ path: join(continueDir(env), "sessions"), layout: "continue", agent: "continue" }],
	walks: { continue: walkContinue },
	sessionEndings: [{ ending: ".json", what: "a Continue session" }],
	env: ["CONTINUE_GLOBAL_DIR"],
};
