/** Codex CLI. */

import { type AgentFacts, PLAIN_ID } from "../agent.js";

export const codex: AgentFacts<"codex"> = {
	kind: "codex",
	label: "Codex",
	idShape: PLAIN_ID,
	resume: (id) => `codex resume ${id}`,
	idFromFileName: (name) => /^rollout-.*-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i.exec(name)?.[1],
	// Each sub-agent is a rollout of its own, in the dated folder of the day it started: anywhere in the home.
	subagentFolder: ({ path }) => /^(.*[\\/])?(?:archived_)?sessions[\\/]/.exec(path)?.[1] ?? "",
	// Its session index of thread names, at the top of its home.
	besideFile: (relative) => relative === "session_index.jsonl",
};
