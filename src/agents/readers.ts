/**
 * How each agent of the registry (registry.ts) is read, in core: keyed by its kind, so an agent listed there
 * without its reader does not compile. Apart from the registry so that the faces' light modules (schemas, help)
 * load no parser.
 */

import type { AgentReader } from "./agent.js";
import { claudeReader } from "./claude/reader.js";
import { codexReader } from "./codex/reader.js";
import { geminiReader } from "./gemini/reader.js";
import { ompReader } from "./omp/reader.js";
import { opencodeReader } from "./opencode/reader.js";
import { piReader } from "./pi/reader.js";
import { AGENT_KINDS, type AgentKind } from "./registry.js";

const READERS: Record<AgentKind, AgentReader> = {
	pi: piReader,
	omp: ompReader,
	claude: claudeReader,
	codex: codexReader,
	gemini: geminiReader,
	opencode: opencodeReader,
};

/** An agent's reader (Pi's for an agent not named: a file of a folder given by hand, before its first line is read). */
export function readerOf(kind: AgentKind | undefined): AgentReader {
	return (kind && READERS[kind]) || piReader;
}

/** Every agent's reader with its kind, in the registry's order. */
export const AGENT_READERS: readonly (readonly [AgentKind, AgentReader])[] = AGENT_KINDS.map((kind) => [kind, READERS[kind]]);
