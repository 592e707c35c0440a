/** Gemini CLI on this machine: `<gemini dir>/tmp`, walked with its layout (../layout.ts). */

import { join } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { walkGemini } from "../layout.js";
import { geminiDir } from "./paths.js";

export const geminiNode: NodeAgent = {
	roots: ({ env }) => [{ path: join(geminiDir(env), "tmp"), layout: "gemini", agent: "gemini" }],
	walks: { gemini: walkGemini },
	sessionEndings: [{ ending: ".jsonl" }, { ending: ".json", what: "a Gemini CLI chat before 0.39" }],
	env: ["GEMINI_CLI_HOME"],
};
