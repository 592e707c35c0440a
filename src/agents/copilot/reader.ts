/** How GitHub Copilot CLI's files are read. */

import type { AgentReader } from "../agent.js";
import { copilotFormat } from "./format.js";
import { copilotPicked } from "./picked.js";

export const copilotReader: AgentReader = { format: copilotFormat, picked: copilotPicked };
