/** Display facts derived from a session row, shared by every result shape. */

import type { AgentKind } from "../parse/source.js";

/** A project's short name: the last folder of its cwd. */
export function projectName(cwd: string | null | undefined): string {
	if (!cwd) return "";
	const parts = cwd.split(/[\\/]/).filter((p) => p.length > 0);
	return parts[parts.length - 1] ?? cwd;
}

/** A path as one shell word. */
function shellWord(path: string): string {
	return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

/**
 * The command that resumes a session in the agent that wrote it. Claude Code, Gemini CLI and OpenCode find a
 * session only from its project's folder (OpenCode 1.18's `-s` elsewhere waits for ever), so their command starts
 * there when the folder is known.
 */
export function resumeHint(sessionId: string, agent: AgentKind = "pi", cwd?: string | null): string {
	const command = agentCommand(sessionId, agent);
	return cwd && (agent === "claude" || agent === "gemini" || agent === "opencode") ? inFolder(cwd, [command]) : command;
}

/**
 * The commands that load OpenCode exports into its database (`opencode import`, which takes the folder it runs in
 * as the session's project: its own folder, when known), and then resume `sessionId` when given.
 */
export function opencodeImportHint(files: readonly string[], cwd?: string | null, sessionId?: string): string {
	const commands = files.map((f) => `opencode import ${shellWord(f)}`);
	if (sessionId) commands.push(agentCommand(sessionId, "opencode"));
	return cwd ? inFolder(cwd, commands) : commands.join(" && ");
}

function inFolder(cwd: string, commands: string[]): string {
	return [`cd ${shellWord(cwd)}`, ...commands].join(" && ");
}

function agentCommand(sessionId: string, agent: AgentKind): string {
	switch (agent) {
		case "omp":
			return `omp --resume ${sessionId}`;
		case "claude":
			return `claude -r ${sessionId}`;
		case "codex":
			return `codex resume ${sessionId}`;
		case "gemini":
			return `gemini --resume ${sessionId}`;
		case "opencode":
			return `opencode -s ${sessionId}`;
		default:
			return `pi --session ${sessionId}`;
	}
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (escape char `\`). */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
