/** The shape of a history at a glance: sessions and messages per day, and the projects with their counts. */

import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { isoOf } from "../text/time.js";
import { projectName } from "./project.js";

export interface ActivityDay {
	/** UTC day, YYYY-MM-DD, of the sessions' start. */
	day: string;
	sessions: number;
	messages: number;
}

export interface ProjectCount {
	/** Last folder of the cwd, as results name it. */
	project: string;
	sessions: number;
	messages: number;
	/** Newest change of a session of the project (ISO). */
	modified?: string;
}

// Only the sessions table is read: over a served index read page by page, the entries table is too large to scan.
const TOP_SESSIONS = "session_id IS NOT NULL AND kind NOT IN ('subagent', 'summariser')";

/** Sessions and messages per day a session started, oldest day first; sub-agent transcripts are not counted. */
export function activityByDay(db: Database): ActivityDay[] {
	return queryAll<ActivityDay>(
		db,
		`SELECT date(coalesce(started, modified) / 1000, 'unixepoch') AS day, count(*) AS sessions, sum(message_count) AS messages
		 FROM sessions WHERE ${TOP_SESSIONS} AND coalesce(started, modified) IS NOT NULL GROUP BY day ORDER BY day`,
	);
}

/** Projects by their number of sessions, most first (same name from several cwds counted together). */
export function projectCounts(db: Database): ProjectCount[] {
	const rows = queryAll<{ cwd: string | null; sessions: number; messages: number; modified: number | null }>(
		db,
		`SELECT cwd, count(*) AS sessions, sum(message_count) AS messages, max(modified) AS modified FROM sessions WHERE ${TOP_SESSIONS} GROUP BY cwd`,
	);
	const byName = new Map<string, { sessions: number; messages: number; modified: number }>();
	for (const r of rows) {
		const name = projectName(r.cwd);
		const seen = byName.get(name) ?? { sessions: 0, messages: 0, modified: 0 };
		byName.set(name, {
			sessions: seen.sessions + r.sessions,
			messages: seen.messages + r.messages,
			modified: Math.max(seen.modified, r.modified ?? 0),
		});
	}
	return [...byName]
		.map(([project, c]) => ({ project, sessions: c.sessions, messages: c.messages, modified: isoOf(c.modified || undefined) }))
		.sort((a, b) => b.sessions - a.sessions || a.project.localeCompare(b.project));
}
