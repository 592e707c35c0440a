/**
 * The agents lookback reads, listed once: their order is the order of `AGENT_KINDS` (the CLI's `--agent` values and
 * help, the tool's and MCP's enums, the viewer's filter, README's table) and of every question asked of each agent
 * (which format claims a file first). An agent's reader and its Node part are keyed by the same kinds
 * (readers.ts, node-registry.ts, both written from this file by scripts/agent-lists.mjs), so a kind listed here
 * without them does not compile. See DESIGN.md, "Agents".
 */

import type { AgentFacts } from "./agent.js";
import { aider } from "./aider/agent.js";
import { amp } from "./amp/agent.js";
import { claude } from "./claude/agent.js";
import { cline } from "./cline/agent.js";
import { codex } from "./codex/agent.js";
import { continueCli } from "./continue/agent.js";
import { copilot } from "./copilot/agent.js";
import { droid } from "./droid/agent.js";
import { gemini } from "./gemini/agent.js";
import { kilo } from "./kilo/agent.js";
import { omp } from "./omp/agent.js";
import { openclaw } from "./openclaw/agent.js";
import { opencode } from "./opencode/agent.js";
import { pi } from "./pi/agent.js";
import { qwen } from "./qwen/agent.js";

// One agent a line, so that agents added apart merge line by line.
// biome-ignore format: the list stays one agent a line
export const AGENTS = [
	pi,
	omp,
	claude,
	codex,
	gemini,
	opencode,
	// wave 2b
	kilo,
	openclaw,
	droid,
	// wave 2a
	qwen,
	copilot,
	continueCli,
	cline,
	// wave 2c
	amp,
	aider,
] as const;

export type AgentKind = (typeof AGENTS)[number]["kind"];

/** The same list, each agent as the facts every agent may declare. */
export const AGENT_FACTS: readonly AgentFacts<AgentKind>[] = [...AGENTS];

/** Every agent whose sessions lookback reads, by its name. */
export const AGENT_KINDS: readonly AgentKind[] = AGENTS.map((a) => a.kind);

const BY_KIND = new Map<string, AgentFacts<AgentKind>>(AGENT_FACTS.map((a) => [a.kind, a]));

/** Whether a string names an agent lookback reads. */
export function isAgentKind(value: unknown): value is AgentKind {
	return typeof value === "string" && BY_KIND.has(value);
}

/** An agent's facts; Pi's for an agent not named (a file of a folder given by hand before its first line is read). */
export function agentFacts(kind: AgentKind | undefined): AgentFacts<AgentKind> {
	return (kind && BY_KIND.get(kind)) || pi;
}

/** The agents' names as people know them, in a sentence: "Pi, oh-my-pi, … and OpenCode". */
export function agentLabels(conjunction = "and"): string {
	const labels = AGENTS.map((a) => a.label);
	return `${labels.slice(0, -1).join(", ")} ${conjunction} ${labels.at(-1)}`;
}
