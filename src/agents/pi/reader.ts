/** How Pi's files are read. */

import type { AgentReader } from "../agent.js";
import { piFormat } from "./format.js";
import { isPiSessionName } from "./layout.js";

export const piReader: AgentReader = { format: piFormat, picked: { takes: (_path, name) => isPiSessionName(name) } };
