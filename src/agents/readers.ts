/**
 * How each agent of the registry (registry.ts) is read, in core: keyed by its kind, so an agent listed there
 * without its reader does not compile. Apart from the registry so that the faces' light modules (schemas, help)
 * load no parser.
 */
// Made by scripts/agent-lists.mjs from registry.ts: run it after adding an agent there, never edit by hand.

import type { AgentReader } from "./agent.js";
import { aiderReader } from "./aider/reader.js";
import { ampReader } from "./amp/reader.js";
import { claudeReader } from "./claude/reader.js";
import { clineReader } from "./cline/reader.js";
import { codexReader } from "./codex/reader.js";
import { continueReader } from "./continue/reader.js";
import { copilotReader } from "./copilot/reader.js";
import { droidReader } from "./droid/reader.js";
import { geminiReader } from "./gemini/reader.js";
import { kiloReader } from "./kilo/reader.js";
import { ompReader } from "./omp/reader.js";
import { openclawReader } from "./openclaw/reader.js";
import { opencodeReader } from "./opencode/reader.js";
import { piReader } from "./pi/reader.js";
import { qwenReader } from "./qwen/reader.js";
import { AGENT_KINDS, type AgentKind } from "./registry.js";

const READERS: Record<AgentKind, AgentReader> = {
	pi: piReader,
	omp: ompReader,
	claude: claudeReader,
	codex: codexReader,
	gemini: geminiReader,
	opencode: opencodeReader,
	kilo: kiloReader,
	openclaw: openclawReader,
	droid: droidReader,
	qwen: qwenReader,
	copilot: copilotReader,
	continue: continueReader,
	cline: clineReader,
	amp: ampReader,
	aider: aiderReader,
};

/** An agent's reader (Pi's for an agent not named: a file of a folder given by hand, before its first line is read). */
export function readerOf(kind: AgentKind | undefined): AgentReader {
	return (kind && READERS[kind]) || READERS.pi;
}

/** Every agent's reader with its kind, in the registry's order. */
export const AGENT_READERS: readonly (readonly [AgentKind, AgentReader])[] = AGENT_KINDS.map((kind) => [kind, READERS[kind]]);
