/** Gemini CLI. */

import { type AgentFacts, PLAIN_ID } from "../agent.js";

export const gemini: AgentFacts<"gemini"> = {
	kind: "gemini",
	label: "Gemini CLI",
	idShape: PLAIN_ID,
	resume: (id) => `gemini --resume ${id}`,
	resumeInProject: true,
	editTools: ["replace", "write_file"],
	// `chats/<parent session id>/<id>.jsonl`: the parent's chat name holds only 8 characters of its id.
	spawnerIdFromPath: (path) => path.split(/[\\/]/).at(-2),
	subagentFolder: ({ path, sessionId, sep }) =>
		sessionId ? `${path.slice(0, path.lastIndexOf(sep) + 1)}${sessionId}${sep}` : `${path.replace(/\.jsonl$/, "")}${sep}`,
};
