/** Pi on this machine: `<agent dir>/sessions`, and a custom flat session dir (whose files name their own agent). */

import type { NodeAgent } from "../../node-agent.js";
import { customSessionDir } from "./paths.js";
import { walkFlat, walkNested } from "./walk.js";

export const piNode: NodeAgent = {
	roots({ agentDir, env }) {
		const custom = customSessionDir(agentDir, env);
		return [{ path: `${agentDir}/sessions`, layout: "nested", agent: "pi" }, ...(custom ? [{ path: custom, layout: "flat" }] : [])];
	},
	walks: { nested: walkNested, flat: walkFlat },
	sessionEndings: [{ ending: ".jsonl" }],
	env: ["PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR"],
};
