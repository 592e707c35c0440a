/** Qwen Code. */

import { type AgentFacts, UUID } from "../agent.js";

export const qwen: AgentFacts<"qwen"> = {
	kind: "qwen",
	label: "Qwen Code",
	// A UUID: `chats/<id>.jsonl` (a sub-agent's session is resumed by its spawner's).
	idShape: UUID,
	// `--resume <id>` finds a session only among the current project's (its chats are kept per project folder).
	resume: (id) => `qwen --resume ${id}`,
	resumeInProject: true,
	// `<project>/chats/<id>.jsonl`'s sub-agents are in `<project>/subagents/<id>/`.
	subagentFolder: ({ path, sessionId, sep }) => {
		const chats = path.slice(0, path.lastIndexOf(sep));
		const project = chats.slice(0, chats.lastIndexOf(sep) + 1);
		const id = sessionId ?? path.slice(path.lastIndexOf(sep) + 1).replace(/\.jsonl$/, "");
		return `${project}subagents${sep}${id}${sep}`;
	},
};
