/** What `lookback restore` of an OpenCode session tells a person to run: its exports imported, then the session resumed. */

import { inFolder, shellWord } from "../../core/read/project.js";
import { opencode } from "./agent.js";

/**
 * The commands that load OpenCode exports into its database (`opencode import`, which takes the folder it runs in
 * as the session's project: its own folder, when known), and then resume `sessionId` when given.
 */
export function opencodeImportHint(files: readonly string[], cwd?: string | null, sessionId?: string): string {
	const commands = files.map((f) => `opencode import ${shellWord(f)}`);
	if (sessionId) commands.push(opencode.resume(sessionId));
	return cwd ? inFolder(cwd, commands) : commands.join(" && ");
}
