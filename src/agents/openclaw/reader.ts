/** How OpenClaw's transcripts are read: Pi's lines, read whole (format.ts). */

import type { AgentReader } from "../agent.js";
import { openclawFormat } from "./format.js";
import { isOpenclawDbName } from "./layout.js";

export const openclawReader: AgentReader = { format: openclawFormat, picked: { takes: (_path, name) => isOpenclawDbName(name) } };
