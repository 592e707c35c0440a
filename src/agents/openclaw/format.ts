/**
 * OpenClaw's transcripts: Pi's session lines (OpenClaw runs Pi's agent core), a `session` header (version 3 in files,
 * 4 in its database), then `message` (user, assistant, toolResult), `model_change`, `thinking_level_change`, `custom`
 * and `custom_message` lines, each an entry of Pi's tree. Read whole on any change: its database's transcript is
 * rendered as one document (node/db.ts), and a rendered session has no bytes to read from an offset.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseSessionLines } from "../pi/format.js";

export const openclawFormat: SessionFormat = { growth: "whole", parseLines: parseSessionLines };
