/** How Cline's files are read. */

import type { AgentReader } from "../agent.js";
import { clineFormat } from "./format.js";

export const clineReader: AgentReader = { format: clineFormat };
