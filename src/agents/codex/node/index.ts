/** Codex on this machine: its home, walked with its layout (../layout.ts). */

import type { NodeAgent } from "../../node-agent.js";
import { walkCodex } from "../layout.js";
import { codexHome } from "./paths.js";

export const codexNode: NodeAgent = {
	roots: ({ env }) => [{ path: codexHome(env), layout: "codex", agent: "codex" }],
	walks: { codex: walkCodex },
	sessionEndings: [{ ending: ".jsonl" }, { ending: ".jsonl.zst", what: "a compressed Codex rollout" }],
	env: ["CODEX_HOME"],
};
