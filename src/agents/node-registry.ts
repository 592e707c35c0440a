/**
 * Each agent's Node part (node-agent.ts), keyed by its kind in the registry (registry.ts): an agent listed there
 * without one does not compile. Read only inside functions, never as a module loads (a loader that runs the sources
 * as CommonJS, Pi's jiti, may hand out a module half made while the imports go round).
 */
// Made by scripts/agent-lists.mjs from registry.ts: run it after adding an agent there, never edit by hand.

import { aiderNode } from "./aider/node/index.js";
import { ampNode } from "./amp/node/index.js";
import { claudeNode } from "./claude/node/index.js";
import { clineNode } from "./cline/node/index.js";
import { codexNode } from "./codex/node/index.js";
import { continueNode } from "./continue/node/index.js";
import { copilotNode } from "./copilot/node/index.js";
import { droidNode } from "./droid/node/index.js";
import { geminiNode } from "./gemini/node/index.js";
import { kiloNode } from "./kilo/node/index.js";
import type { AgentWalk, NodeAgent } from "./node-agent.js";
import { ompNode } from "./omp/node/index.js";
import { openclawNode } from "./openclaw/node/index.js";
import { opencodeNode } from "./opencode/node/index.js";
import { piNode } from "./pi/node/index.js";
import { qwenNode } from "./qwen/node/index.js";
import { AGENT_KINDS, type AgentKind } from "./registry.js";

const NODE_AGENTS: Record<AgentKind, NodeAgent> = {
	pi: piNode,
	omp: ompNode,
	claude: claudeNode,
	codex: codexNode,
	gemini: geminiNode,
	opencode: opencodeNode,
	kilo: kiloNode,
	openclaw: openclawNode,
	droid: droidNode,
	qwen: qwenNode,
	copilot: copilotNode,
	continue: continueNode,
	cline: clineNode,
	amp: ampNode,
	aider: aiderNode,
};

/** An agent's Node part. */
export function nodeAgent(kind: AgentKind): NodeAgent {
	return NODE_AGENTS[kind];
}

/** Every agent's Node part, in the registry's order. */
export function nodeAgents(): NodeAgent[] {
	return AGENT_KINDS.map((kind) => NODE_AGENTS[kind]);
}

let walks: Map<string, AgentWalk> | undefined;

/** The walk of a root's layout, whichever agent declares it; undefined for a layout no agent declares. */
export function layoutWalk(layout: string): AgentWalk | undefined {
	if (!walks) {
		walks = new Map();
		for (const agent of nodeAgents()) for (const [name, walk] of Object.entries(agent.walks)) walks.set(name, walk);
	}
	return walks.get(layout);
}
