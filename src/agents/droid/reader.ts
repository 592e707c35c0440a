/** How Factory Droid's sessions are read (format.ts). */

import type { AgentReader } from "../agent.js";
import { droidFormat } from "./format.js";
import { isDroidSessionName } from "./layout.js";

export const droidReader: AgentReader = { format: droidFormat, picked: { takes: (_path, name) => isDroidSessionName(name) } };
