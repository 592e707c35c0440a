/** What `lookback restore` of a session kept as OpenCode's rows tells a person to run: its exports imported, then the session resumed. */

import { inFolder, resumeCommand, shellWord } from "../../core/read/project.js";
import type { AgentKind } from "../registry.js";

/** An agent that imports OpenCode's exports: its kind (whose `resume` resumes a session) and its command (`opencode`, `kilo`). */
export interface ExportImporter {
	kind: AgentKind;
	label: string;
	command: string;
}

/**
 * The commands that load exports into the agent's database (`<command> import`, which takes the folder it runs in
 * as the session's project: its own folder, when known), and then resume `sessionId` when given and of the agent's
 * shape (`resumeCommand` checks and quotes it).
 */
export function importHint(agent: ExportImporter, files: readonly string[], cwd?: string | null, sessionId?: string): string {
	const commands = files.map((f) => `${agent.command} import ${shellWord(f)}`);
	const resume = sessionId && resumeCommand(sessionId, agent.kind);
	if (resume) commands.push(resume);
	return cwd ? inFolder(cwd, commands) : commands.join(" && ");
}
