/** How Cline's files are read. */

import type { AgentReader } from "../agent.js";
import { clineFormat } from "./format.js";
import { clinePicked } from "./picked.js";

export const clineReader: AgentReader = { format: clineFormat, picked: clinePicked };
