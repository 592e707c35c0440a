/** Pi: the agent whose session tree every other agent's records are read into. */

import { type AgentFacts, PLAIN_ID } from "../agent.js";

export const pi: AgentFacts<"pi"> = {
	kind: "pi",
	label: "Pi",
	idShape: PLAIN_ID,
	resume: (id) => `pi --session ${id}`,
	opensInPi: true,
	editTools: ["edit", "write"],
	// `<timestamp>_<id>.jsonl` (omp names its sessions the same way).
	idFromFileName: (name) => /_([0-9a-fA-F-]{8,})\.jsonl$/.exec(name)?.[1],
};
