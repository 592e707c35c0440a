/**
 * Aider: its chat history is a Markdown file in the project's folder, `.aider.chat.history.md`, which every run
 * appends to. Read from its documented format and public readers of it (format.ts), never from files the real
 * CLI wrote here: it needs a model provider to run.
 */

import type { AgentFacts } from "../agent.js";

export const aider: AgentFacts<"aider"> = {
	kind: "aider",
	label: "Aider",
	// `aider-<the run's start, digits only>` (format.ts).
	idShape: /^aider-\d{8,20}$/,
	// Aider keeps one history per project, read back into a new run from the project's folder.
	resume: () => "aider --restore-chat-history",
	resumeInProject: true,
};
