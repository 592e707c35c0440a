/** A session as stored in the index, and the summary every face shows of it. */

import { type AgentKind, agentFacts } from "../../agents/registry.js";
import { sessionIdFromFileName } from "../parse/session-format.js";
import type { SessionKind } from "../parse/source.js";
import { isoOf } from "../text/time.js";
import type { SessionCost } from "../usage/session-usage.js";
import { projectName, restoreHint, resumeHint } from "./project.js";

/** Columns of `sessions` read for display. */
export const SESSION_COLUMNS =
	"id, path, session_id, cwd, name, started, modified, parent_path, parent_id, first_prompt, message_count, entry_count, size, problem, agent, kind, spawned_by, gone_at";

export interface SessionRow {
	id: number;
	path: string;
	session_id: string | null;
	cwd: string | null;
	name: string | null;
	started: number | null;
	modified: number | null;
	parent_path: string | null;
	parent_id: string | null;
	first_prompt: string | null;
	message_count: number;
	entry_count: number;
	size: number;
	problem: string | null;
	agent: AgentKind;
	kind: SessionKind;
	spawned_by: string | null;
	gone_at: number | null;
}

/** What a result, a browse line or a read header says about a session. Field names are the stable JSON shape. */
export interface SessionSummary {
	sessionId: string;
	path: string;
	name?: string;
	cwd?: string;
	/** Last folder of the cwd. */
	project: string;
	started?: string;
	modified?: string;
	messageCount: number;
	firstPrompt?: string;
	/** Session this one was forked or cloned from. */
	parentSessionId?: string;
	/** The agent that wrote it. */
	agent: AgentKind;
	/** "session", "subagent" (an omp sub-agent transcript) or "archived" (an omp gc archive). */
	kind: SessionKind;
	/** For a sub-agent: the session file that spawned it, and that session's id. */
	spawnedBy?: string;
	spawnedBySessionId?: string;
	/**
	 * The tool call or result in the spawning session that names this sub-agent, where the files say. On a hit in a
	 * sub-agent's conversation kept in this session's own file (Claude Code 1.0's inline sidechains; no `spawnedBy`):
	 * the call of this session that spawned it.
	 */
	spawnedByEntryId?: string;
	/** The command that resumes it; for a gone session, `lookback restore <id> && ` first (OpenCode's: `lookback restore <id>`, which prints what imports and resumes it). */
	resumeHint: string;
	/** "gone": the agent removed the file, and the session is read from lookback's archive (`lookback restore` writes it back). */
	source?: "gone";
	/** When a sync found the file gone (ISO). */
	goneAt?: string;
	/** What the session used (tokens, and its cost where its files say or its tokens could be priced), in a list. */
	usage?: SessionCost;
}

/**
 * The session id of a sub-agent's spawner: from the spawning file's name, else from the sub-agent's own path where its
 * agent says (Gemini CLI, whose chat names hold 8 characters of it: `chats/<parent session id>/<id>.jsonl`).
 */
function spawnerId(row: SessionRow): string | undefined {
	if (!row.spawned_by) return undefined;
	return sessionIdFromFileName(row.spawned_by) ?? agentFacts(row.agent).spawnerIdFromPath?.(row.path);
}

/**
 * A gone session's command: restored first. Where `lookback restore` writes it elsewhere (OpenCode's, to a file for
 * `opencode import`: lookback never writes OpenCode's database), restore alone, which prints the commands that load
 * and resume it.
 */
function goneHint(resumed: string, agent: AgentKind, hint: string): string {
	return agentFacts(agent).restoredElsewhere ? restoreHint(resumed) : restoreHint(resumed, hint);
}

export function sessionSummary(row: SessionRow): SessionSummary {
	const sessionId = row.session_id ?? "";
	const spawnedBySessionId = spawnerId(row);
	const resumed = row.kind === "subagent" ? (spawnedBySessionId ?? sessionId) : sessionId;
	const hint = resumeHint(resumed, row.agent, row.cwd);
	// A gone session is written back first (its sub-agent's, by its session's id).
	const gone = row.gone_at !== null && row.gone_at !== undefined;
	return {
		sessionId,
		path: row.path,
		name: row.name ?? undefined,
		cwd: row.cwd ?? undefined,
		project: projectName(row.cwd),
		started: isoOf(row.started),
		modified: isoOf(row.modified),
		messageCount: row.message_count,
		firstPrompt: row.first_prompt ?? undefined,
		parentSessionId: row.parent_id ?? undefined,
		agent: row.agent,
		kind: row.kind,
		spawnedBy: row.spawned_by ?? undefined,
		spawnedBySessionId,
		resumeHint: gone ? goneHint(resumed, row.agent, hint) : hint,
		...(gone ? { source: "gone" as const, goneAt: isoOf(row.gone_at) } : {}),
	};
}
