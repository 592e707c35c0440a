/** How Continue's files are read. */

import type { AgentReader } from "../agent.js";
import { continueFormat } from "./format.js";
import { continuePicked } from "./picked.js";

export const continueReader: AgentReader = { format: continueFormat, picked: continuePicked };
