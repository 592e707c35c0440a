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
	return cwd && (agent === "claude" || agent === "gemini" || agent === "opencode") ? `cd ${shellWord(cwd)} && ${command}` : command;
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
