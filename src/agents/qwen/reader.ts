/** How Qwen Code's files are read. */

import type { AgentReader } from "../agent.js";
import { qwenFormat } from "./format.js";
import { qwenPicked } from "./picked.js";

export const qwenReader: AgentReader = { format: qwenFormat, picked: qwenPicked };
