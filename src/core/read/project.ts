/** Display facts derived from a session row, shared by every result shape. */

import { type AgentKind, agentFacts } from "../../agents/registry.js";

/** A project's short name: the last folder of its cwd. */
export function projectName(cwd: string | null | undefined): string {
	if (!cwd) return "";
	const parts = cwd.split(/[\\/]/).filter((p) => p.length > 0);
	return parts[parts.length - 1] ?? cwd;
}

/** A path as one shell word. */
export function shellWord(path: string): string {
	return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

/**
 * The command that resumes a session in the agent that wrote it (`AgentFacts.resume`). An agent that finds a session
 * only from its project's folder (`resumeInProject`: Claude Code, Gemini CLI, OpenCode) has it start there when the
 * folder is known.
 */
export function resumeHint(sessionId: string, agent: AgentKind = "pi", cwd?: string | null): string {
	const facts = agentFacts(agent);
	const command = facts.resume(sessionId);
	return cwd && facts.resumeInProject ? inFolder(cwd, [command]) : command;
}

/** Commands run one after the other from `cwd`. */
export function inFolder(cwd: string, commands: string[]): string {
	return [`cd ${shellWord(cwd)}`, ...commands].join(" && ");
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (escape char `\`). */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
