/** What `lookback restore` of a session kept as OpenCode's rows tells a person to run: its exports imported, then the session resumed. */

import { inFolder, shellWord } from "../../core/read/project.js";

/** An agent that imports OpenCode's exports: its command (`opencode`, `kilo`) and how it resumes a session. */
export interface ExportImporter {
	label: string;
	command: string;
	resume(sessionId: string): string;
}

/**
 * The commands that load exports into the agent's database (`<command> import`, which takes the folder it runs in
 * as the session's project: its own folder, when known), and then resume `sessionId` when given.
 */
export function importHint(agent: ExportImporter, files: readonly string[], cwd?: string | null, sessionId?: string): string {
	const commands = files.map((f) => `${agent.command} import ${shellWord(f)}`);
	if (sessionId) commands.push(agent.resume(sessionId));
	return cwd ? inFolder(cwd, commands) : commands.join(" && ");
}
