/** GitHub Copilot CLI on this machine: `<copilot home>/session-state`, walked with its layout (../layout.ts). */

import { join } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { walkCopilot } from "../layout.js";
import { copilotHome } from "./paths.js";

export const copilotNode: NodeAgent = {
	roots: ({ env }) => [{ path: join(copilotHome(env), "session-state"), layout: "copilot", agent: "copilot" }],
	walks: { copilot: walkCopilot },
	sessionEndings: [{ ending: ".jsonl" }],
	env: ["COPILOT_HOME"],
};
