/** What one session used: its cost beside its summary in a list, and in its reader the whole of it (models, tools, files). */

import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { type UsageTotals, usageReport } from "./report.js";

/** A session's cost as a list names it. */
export interface SessionCost {
	tokens: number;
	/** USD, recorded and estimated; absent when no message had a price. */
	costUsd?: number;
	/** Some of the cost is estimated from the price table. */
	estimated?: true;
	/** Some messages had tokens the table has no price for: the cost leaves them out. */
	partial?: true;
}

/** Costs of the sessions with these row ids (those that used nothing are left out). */
export function sessionCosts(db: Database, ids: number[]): Map<number, SessionCost> {
	const out = new Map<number, SessionCost>();
	if (ids.length === 0) return out;
	const rows = queryAll<{ session: number; tokens: number; cost: number; estimated: number; unpriced: number; priced: number }>(
		db,
		`SELECT session, sum(input + output + cache_read + cache_write) AS tokens, sum(cost) AS cost, sum(estimated) AS estimated,
		 sum(unpriced) AS unpriced, sum(messages) - sum(unpriced) AS priced FROM usage_hours WHERE session IN (${ids.map(() => "?").join(",")}) GROUP BY session`,
		ids,
	);
	for (const r of rows) {
		const priced = r.cost > 0 || r.unpriced === 0;
		out.set(r.session, {
			tokens: r.tokens,
			...(priced ? { costUsd: Math.round(r.cost * 1e6) / 1e6 } : {}),
			...(r.estimated > 0 ? { estimated: true as const } : {}),
			...(r.unpriced > 0 && priced ? { partial: true as const } : {}),
		});
	}
	return out;
}

export interface ToolCount {
	tool: string;
	calls: number;
	/** Results that reported an error. */
	errors: number;
}

/** Everything one session used. */
export interface SessionUsage extends UsageTotals {
	/** By model, most expensive first: the part of each cost estimated, and answers with no price, as in the totals. */
	models: {
		model: string;
		provider?: string;
		messages: number;
		tokens: number;
		costUsd: number;
		estimatedUsd: number;
		unpricedMessages: number;
	}[];
	/** Tool calls by tool, most called first. */
	tools: ToolCount[];
	/** Files its tool calls wrote or edited, most edited first. */
	files: { path: string; edits: number }[];
	/** Messages copied from a session it was forked from: counted there, not here. */
	copiedMessages: number;
}

/** A session's usage, by its row id. */
export function sessionUsage(db: Database, session: number): SessionUsage {
	const report = usageReport(db, { by: "model", sessionRow: session });
	return {
		...report.total,
		models: report.rows.map((r) => ({
			model: r.key,
			...(r.provider ? { provider: r.provider } : {}),
			messages: r.messages,
			tokens: r.tokens,
			costUsd: r.costUsd,
			estimatedUsd: r.estimatedUsd,
			unpricedMessages: r.unpricedMessages,
		})),
		tools: queryAll<ToolCount>(
			db,
			"SELECT tool, sum(calls) AS calls, sum(errors) AS errors FROM session_tools WHERE session = ? GROUP BY tool ORDER BY calls DESC, tool",
			[session],
		),
		files: queryAll<{ path: string; edits: number }>(
			db,
			"SELECT path, edits FROM touched_files WHERE session = ? ORDER BY edits DESC, path",
			[session],
		),
		copiedMessages: queryOne<{ n: number }>(db, "SELECT count(*) AS n FROM usage WHERE session = ? AND dup = 1", [session])?.n ?? 0,
	};
}
