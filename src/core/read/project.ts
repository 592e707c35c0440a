/** Display facts derived from a session row, shared by every result shape. */

import type { AgentKind } from "../parse/source.js";

/** A project's short name: the last folder of its cwd. */
export function projectName(cwd: string | null | undefined): string {
	if (!cwd) return "";
	const parts = cwd.split(/[\\/]/).filter((p) => p.length > 0);
	return parts[parts.length - 1] ?? cwd;
}

/**
 * Any value as one shell word: left bare when it holds only characters no shell treats specially, else in single
 * quotes (a quote inside closed, escaped and opened again). The one quoting every resume hint uses: ids, cwds and
 * paths come from session files, which anyone can write (`deadbeef; touch PWNED #` as a session id).
 */
export function shellWord(value: string): string {
	return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** The shape of a session id each agent writes (Pi's and omp's UUIDs and file stems, the others' UUIDs, OpenCode's `ses_…`). */
const ID_SHAPES: Record<AgentKind, RegExp> = {
	pi: /^[A-Za-z0-9][A-Za-z0-9_.-]{2,127}$/,
	omp: /^[A-Za-z0-9][A-Za-z0-9_.-]{2,127}$/,
	claude: /^[A-Za-z0-9][A-Za-z0-9_.-]{2,127}$/,
	codex: /^[A-Za-z0-9][A-Za-z0-9_.-]{2,127}$/,
	gemini: /^[A-Za-z0-9][A-Za-z0-9_.-]{2,127}$/,
	opencode: /^ses_[A-Za-z0-9]{4,64}$/,
};

/** Whether a session id has the shape its agent writes: only such an id enters a command. */
export function isAgentSessionId(sessionId: string, agent: AgentKind): boolean {
	return (ID_SHAPES[agent] ?? ID_SHAPES.pi).test(sessionId);
}

/**
 * The command that resumes a session in the agent that wrote it, or "" when the id has not its agent's shape
 * (no command is made of it). Claude Code, Gemini CLI and OpenCode find a session only from its project's folder
 * (OpenCode 1.18's `-s` elsewhere waits for ever), so their command starts there when the folder is known. Every
 * value in it is one shell word (`shellWord`).
 */
export function resumeHint(sessionId: string, agent: AgentKind = "pi", cwd?: string | null): string {
	if (!isAgentSessionId(sessionId, agent)) return "";
	const command = agentCommand(sessionId, agent);
	return cwd && (agent === "claude" || agent === "gemini" || agent === "opencode") ? inFolder(cwd, [command]) : command;
}

/** A gone session's command: `lookback restore` first (its own id, quoted), then the hint that resumes it, if any. */
export function restoreHint(sessionId: string, then?: string): string {
	const restore = `lookback restore ${shellWord(sessionId)}`;
	return then ? `${restore} && ${then}` : restore;
}

/**
 * The commands that load OpenCode exports into its database (`opencode import`, which takes the folder it runs in
 * as the session's project: its own folder, when known), and then resume `sessionId` when given.
 */
export function opencodeImportHint(files: readonly string[], cwd?: string | null, sessionId?: string): string {
	const commands = files.map((f) => `opencode import ${shellWord(f)}`);
	if (sessionId && isAgentSessionId(sessionId, "opencode")) commands.push(agentCommand(sessionId, "opencode"));
	return cwd ? inFolder(cwd, commands) : commands.join(" && ");
}

function inFolder(cwd: string, commands: string[]): string {
	return [`cd ${shellWord(cwd)}`, ...commands].join(" && ");
}

function agentCommand(sessionId: string, agent: AgentKind): string {
	const id = shellWord(sessionId);
	switch (agent) {
		case "omp":
			return `omp --resume ${id}`;
		case "claude":
			return `claude -r ${id}`;
		case "codex":
			return `codex resume ${id}`;
		case "gemini":
			return `gemini --resume ${id}`;
		case "opencode":
			return `opencode -s ${id}`;
		default:
			return `pi --session ${id}`;
	}
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (escape char `\`). */
export function containsPattern(text: string): string {
	return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
