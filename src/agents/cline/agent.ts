/** Cline's CLI. */

import type { AgentFacts } from "../agent.js";

export const cline: AgentFacts<"cline"> = {
	kind: "cline",
	label: "Cline",
	// `<ms-epoch>_<5 chars>` (a sub-agent's `<id>__agent_…` is resumed by its spawner's).
	idShape: /^\d{10,16}_[0-9A-Za-z]{3,16}$/,
	// `--id <session id>` resumes a session in its interactive UI (not with `--json`).
	resume: (id) => `cline --id ${id}`,
	resumeInProject: true,
	idFromFileName: (name) => /^(\d+_[0-9a-z]+)\.messages\.json$/i.exec(name)?.[1],
	// `sessions/<id>/<id>.messages.json`'s sub-agents are `agent_<id>.messages.json` beside it.
	subagentFolder: ({ path, sep }) => path.slice(0, path.lastIndexOf(sep) + 1),
};
