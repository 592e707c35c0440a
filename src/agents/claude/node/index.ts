/** Claude Code on this machine: `<config dir>/projects`, walked with its layout (../layout.ts). */

import { join } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { walkClaude } from "../layout.js";
import { claudeConfigDir } from "./paths.js";

export const claudeNode: NodeAgent = {
	roots: ({ env }) => [{ path: join(claudeConfigDir(env), "projects"), layout: "claude", agent: "claude" }],
	walks: { claude: walkClaude },
	sessionEndings: [{ ending: ".jsonl" }],
	env: ["CLAUDE_CONFIG_DIR"],
};
