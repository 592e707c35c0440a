/** A session as stored in the index, and the summary every face shows of it. */

import { sessionIdFromFileName } from "../parse/session-format.js";
import type { AgentKind, SessionKind } from "../parse/source.js";
import { isoOf } from "../text/time.js";
import type { SessionCost } from "../usage/session-usage.js";
import { projectName, resumeHint } from "./project.js";

/** Columns of `sessions` read for display. */
export const SESSION_COLUMNS =
	"id, path, session_id, cwd, name, started, modified, parent_path, parent_id, first_prompt, message_count, entry_count, size, problem, agent, kind, spawned_by";

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
	/** The tool call or result in the spawning session that names this sub-agent, where the files say. */
	spawnedByEntryId?: string;
	resumeHint: string;
	/** What the session used (tokens, and its cost where its files say or its tokens could be priced), in a list. */
	usage?: SessionCost;
}

/**
 * The session id of a sub-agent's spawner: from the spawning file's name, else (Gemini CLI, whose chat names hold
 * 8 characters of it) from the sub-agent's folder, `chats/<parent session id>/<id>.jsonl`.
 */
function spawnerId(row: SessionRow): string | undefined {
	if (!row.spawned_by) return undefined;
	return sessionIdFromFileName(row.spawned_by) ?? (row.agent === "gemini" ? row.path.split(/[\\/]/).at(-2) : undefined);
}

export function sessionSummary(row: SessionRow): SessionSummary {
	const sessionId = row.session_id ?? "";
	const spawnedBySessionId = spawnerId(row);
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
		resumeHint: resumeHint(row.kind === "subagent" ? (spawnedBySessionId ?? sessionId) : sessionId, row.agent, row.cwd),
	};
}
