/** Display facts derived from a session row, shared by every result shape. */

import { type AgentKind, agentFacts } from "../../agents/registry.js";

/** A project's short name: the last folder of its cwd. */
export function projectName(cwd: string | null | undefined): string {
	if (!cwd) return "";
	const parts = cwd.split(/[\\/]/).filter((p) => p.length > 0);
	return parts[parts.length - 1] ?? cwd;
}

/**
 * Any value as one shell word: left bare when it holds only characters no shell treats specially, else in single
 * quotes (a quote inside closed, escaped and opened again). The one quoting every hint uses: ids, cwds and paths come
 * from session files, which anyone can write (`deadbeef; touch PWNED #` as a session id).
 */
export function shellWord(value: string): string {
	return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** Whether a session id has the shape its agent writes (`AgentFacts.idShape`): only such an id enters a command. */
export function isAgentSessionId(sessionId: string, agent: AgentKind): boolean {
	return agentFacts(agent).idShape.test(sessionId);
}

/**
 * The command that resumes a session in the agent that wrote it, or undefined when the id has not its agent's
 * shape (no command is made of it). Every agent's resume command is built here: `AgentFacts.resume` gets the id
 * checked and quoted as one shell word, never the id as the file had it.
 */
export function resumeCommand(sessionId: string, agent: AgentKind): string | undefined {
	return isAgentSessionId(sessionId, agent) ? agentFacts(agent).resume(shellWord(sessionId)) : undefined;
}

/**
 * The command that resumes a session, or "" when its id has not its agent's shape. An agent that finds a session
 * only from its project's folder (`resumeInProject`: Claude Code, Gemini CLI, OpenCode) has it start there when the
 * folder is known.
 */
export function resumeHint(sessionId: string, agent: AgentKind = "pi", cwd?: string | null): string {
	const command = resumeCommand(sessionId, agent);
	if (!command) return "";
	return cwd && agentFacts(agent).resumeInProject ? inFolder(cwd, [command]) : command;
}

/** A gone session's command: `lookback restore` first (its own id, quoted), then the hint that resumes it, if any. */
export function restoreHint(sessionId: string, then?: string): string {
	const restore = `lookback restore ${shellWord(sessionId)}`;
	return then ? `${restore} && ${then}` : restore;
}

/** Commands run one after the other from `cwd`. */
export function inFolder(cwd: string, commands: string[]): string {
	return [`cd ${shellWord(cwd)}`, ...commands].join(" && ");
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (escape char `\`). */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
