/** How Claude Code's files are read. */

import type { AgentReader } from "../agent.js";
import { claudeFormat } from "./format.js";
import { claudePicked } from "./picked.js";

export const claudeReader: AgentReader = { format: claudeFormat, picked: claudePicked };
