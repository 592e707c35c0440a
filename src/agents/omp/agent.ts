/** oh-my-pi (omp): Pi's fork, writing Pi's format with a title slot of its own; Pi and omp read each other's files. */

import { type AgentFacts, PLAIN_ID } from "../agent.js";

export const omp: AgentFacts<"omp"> = {
	kind: "omp",
	label: "oh-my-pi",
	idShape: PLAIN_ID,
	resume: (id) => `omp --resume ${id}`,
	opensInPi: true,
	editTools: ["edit", "write"],
	dirOption: { name: "omp-agent-dir", help: "oh-my-pi's agent dir (default ~/.omp/agent): its sessions, sub-agents, archives" },
};
