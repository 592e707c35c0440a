/** How Gemini CLI's files are read. */

import type { AgentReader } from "../agent.js";
import { geminiFormat } from "./format.js";
import { geminiPicked } from "./picked.js";

export const geminiReader: AgentReader = { format: geminiFormat, picked: geminiPicked };
