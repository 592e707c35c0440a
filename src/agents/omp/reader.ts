/** How omp's files are read: Pi's format, and its title slot rewritten in place on a rename. */

import type { AgentReader } from "../agent.js";
import { piFormat } from "../pi/format.js";
import { slotBytesTitle, titleSlotLength } from "./title-slot.js";

export const ompReader: AgentReader = { format: piFormat, titleSlot: { length: titleSlotLength, title: slotBytesTitle } };
