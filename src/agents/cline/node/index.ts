/** Cline on this machine: `<data dir>/sessions`, walked with its layout (../layout.ts). */

import { join } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { walkCline } from "../layout.js";
import { clineDataDir } from "./paths.js";

export const clineNode: NodeAgent = {
	roots: ({ env }) => [{ path: join(clineDataDir(env), "sessions"), layout: "cline", agent: "cline" }],
	walks: { cline: walkCline },
	sessionEndings: [{ ending: ".messages.json", what: "a Cline transcript" }],
	env: ["CLINE_DATA_DIR", "CLINE_DIR"],
};
