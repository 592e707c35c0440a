/** Claude Code. */

import { type AgentFacts, PLAIN_ID } from "../agent.js";

export const claude: AgentFacts<"claude"> = {
	kind: "claude",
	label: "Claude Code",
	idShape: PLAIN_ID,
	resume: (id) => `claude -r ${id}`,
	resumeInProject: true,
	editTools: ["edit", "write", "multiedit", "notebookedit"],
	idFromFileName: (name) => /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name)?.[1],
	// Sub-agents in `<uuid>/subagents/` (2.1.2+) or beside the sessions (2.0.x): anywhere in the project's folder.
	subagentFolder: ({ path, sep }) => path.slice(0, path.lastIndexOf(sep) + 1),
	// A tool's output spilled beside a session.
	besideFile: (relative) => /\/tool-results\/[^/]+\.txt$/.test(relative),
};
