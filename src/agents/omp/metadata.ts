/**
 * Titles and summaries omp keeps outside the transcripts: `session_titles` and `session_recaps` in
 * history.db, `stage1_outputs.rollout_summary` in agent.db (only when omp's local memory is on). Read from a
 * copy of the bytes (never written); any table or column may be missing in older omp versions.
 */

import type { Database, SqlJsStatic } from "../../core/store/engine.js";
import { queryAll } from "../../core/store/engine.js";

export interface OmpMetadata {
	titles: Map<string, string>;
	summaries: Map<string, string>;
	/** A `-wal` file holds rows this copy cannot see (sql.js cannot apply a WAL): a title or summary may be stale. */
	mayBeStale: boolean;
}

function columns(db: Database, table: string): Set<string> {
	return new Set(queryAll<{ name: string }>(db, `PRAGMA table_info(${table})`).map((c) => c.name));
}

function open(SQL: SqlJsStatic, bytes: Uint8Array | undefined): Database | undefined {
	if (!bytes || bytes.length === 0) return undefined;
	try {
		const db = new SQL.Database(bytes);
		db.exec("SELECT count(*) FROM sqlite_master");
		return db;
	} catch {
		return undefined; // locked mid-write, damaged or not SQLite: no titles, never a failed search
	}
}

/** Titles and summaries by session id from history.db and agent.db bytes (either may be missing). */
export function readOmpMetadata(SQL: SqlJsStatic, files: { history?: Uint8Array; agent?: Uint8Array; walPending?: boolean }): OmpMetadata {
	const meta: OmpMetadata = { titles: new Map(), summaries: new Map(), mayBeStale: files.walPending ?? false };
	const history = open(SQL, files.history);
	if (history) {
		try {
			if (columns(history, "session_titles").has("title")) {
				for (const r of queryAll<{ session_id: string; title: string }>(history, "SELECT session_id, title FROM session_titles"))
					meta.titles.set(r.session_id, r.title);
			}
			const recap = columns(history, "session_recaps");
			if (recap.has("recap") && recap.has("session_id")) {
				const order = recap.has("created_at") ? "created_at, id" : "id";
				for (const r of queryAll<{ session_id: string; recap: string }>(
					history,
					`SELECT session_id, recap FROM session_recaps ORDER BY ${order}`,
				))
					meta.summaries.set(r.session_id, r.recap);
			}
		} finally {
			history.close();
		}
	}
	const agent = open(SQL, files.agent);
	if (agent) {
		try {
			const cols = columns(agent, "stage1_outputs");
			if (cols.has("thread_id") && cols.has("rollout_summary")) {
				for (const r of queryAll<{ thread_id: string; rollout_summary: string }>(
					agent,
					"SELECT thread_id, rollout_summary FROM stage1_outputs",
				)) {
					if (!meta.summaries.has(r.thread_id)) meta.summaries.set(r.thread_id, r.rollout_summary);
				}
			}
		} finally {
			agent.close();
		}
	}
	return meta;
}
