/** Qwen Code on this machine: `<runtime dir>/projects`, walked with its layout (../layout.ts). */

import { join } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { walkQwen } from "../layout.js";
import { qwenRuntimeDir } from "./paths.js";

export const qwenNode: NodeAgent = {
	roots: ({ env }) => [{ path: join(qwenRuntimeDir(env), "projects"), layout: "qwen", agent: "qwen" }],
	walks: { qwen: walkQwen },
	sessionEndings: [{ ending: ".jsonl" }],
	env: ["QWEN_HOME", "QWEN_RUNTIME_DIR"],
};
