/** What `lookback restore` of an OpenCode session tells a person to run: its exports imported, then the session resumed. */

import { inFolder, resumeCommand, shellWord } from "../../core/read/project.js";

/**
 * The commands that load OpenCode exports into its database (`opencode import`, which takes the folder it runs in
 * as the session's project: its own folder, when known), and then resume `sessionId` when given.
 */
export function opencodeImportHint(files: readonly string[], cwd?: string | null, sessionId?: string): string {
	const commands = files.map((f) => `opencode import ${shellWord(f)}`);
	const resume = sessionId && resumeCommand(sessionId, "opencode");
	if (resume) commands.push(resume);
	return cwd ? inFolder(cwd, commands) : commands.join(" && ");
}
