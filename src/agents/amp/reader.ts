/** How Amp's threads are read. */

import type { AgentReader } from "../agent.js";
import { ampFormat } from "./format.js";

export const ampReader: AgentReader = { format: ampFormat };
