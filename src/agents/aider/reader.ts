/** How Aider's histories are read. */

import type { AgentReader } from "../agent.js";
import { aiderFormat } from "./format.js";

export const aiderReader: AgentReader = { format: aiderFormat };
