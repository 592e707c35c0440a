/** How OpenCode's sessions are read: the document its walk renders from its rows (node/walk.ts), in `opencode export`'s shape. */

import type { AgentReader } from "../agent.js";
import { opencodeFormat } from "./format.js";
import { isOpencodeDbName } from "./layout.js";

export const opencodeReader: AgentReader = { format: opencodeFormat, picked: { takes: (_path, name) => isOpencodeDbName(name) } };
