/**
 * The viewer's dashboard in one call: cost and tokens over time stacked by model or agent, activity per day for a
 * calendar, the top projects and models, tool calls with their errors, and the most expensive sessions. Every figure
 * is summed in SQL over the per-session sums (report.ts); the page gets a few hundred numbers, never rows of messages.
 */

import { filterSql } from "../query/session-filter.js";
import { SESSION_COLUMNS, type SessionRow, type SessionSummary, sessionSummary } from "../read/session-rows.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { PRICE_SOURCE } from "./prices.js";
import {
	groupedUsage,
	modelNames,
	periodSql,
	type UsageFilter,
	type UsageRow,
	type UsageTotals,
	usageByPeriodAnd,
	usageReport,
	usageTotals,
} from "./report.js";
import type { SessionCost, ToolCount } from "./session-usage.js";

export interface DashboardRequest extends UsageFilter {
	/** What the chart over time stacks: models (default) or agents. */
	stackBy?: "model" | "agent";
	/** Series drawn in the chart, the rest summed as "other" (default 6). */
	series?: number;
}

export interface Dashboard {
	total: UsageTotals;
	/** The chart's period: days over a few months, weeks over a few years, else months. */
	period: "day" | "week" | "month";
	stackBy: "model" | "agent";
	/** Names of the stacked series, largest first; "other" last when the rest were summed. */
	series: string[];
	/** Per period (oldest first), each series' cost (USD) and tokens, in the order of `series`. */
	points: { period: string; cost: number[]; tokens: number[] }[];
	/** Per day with any use (oldest first): for the calendar. */
	days: { day: string; sessions: number; messages: number; costUsd: number; tokens: number }[];
	projects: UsageRow[];
	models: UsageRow[];
	agents: UsageRow[];
	tools: { calls: number; errors: number; byTool: ToolCount[] };
	/** The most expensive sessions under the filter, with what they cost under it. */
	sessions: (SessionSummary & { usage: SessionCost })[];
	utc: boolean;
	/** Where the estimated prices come from. */
	prices: string;
}

const DAY = 86_400_000;

function periodFor(first: string | undefined, last: string | undefined): Dashboard["period"] {
	if (!first || !last) return "day";
	const span = (Date.parse(last) - Date.parse(first)) / DAY;
	return span <= 120 ? "day" : span <= 3 * 365 ? "week" : "month";
}

export function usageDashboard(db: Database, request: DashboardRequest = {}): Dashboard {
	const utc = request.utc ?? false;
	const stackBy = request.stackBy ?? "model";
	const days = groupedUsage(db, request, periodSql("day", utc)).map((d) => ({
		day: String(d.k),
		sessions: d.sessions,
		messages: d.messages,
		costUsd: Math.round(d.costUsd * 1e6) / 1e6,
		tokens: d.input + d.output + d.cacheRead + d.cacheWrite,
	}));
	const period = periodFor(days[0]?.day, days[days.length - 1]?.day);
	const stacked = usageByPeriodAnd(db, request, periodSql(period, utc), stackBy === "model" ? "h.model" : "s.agent");
	const { series, points } = stack(stacked, request.series ?? 6, stackBy === "model" ? modelLabel(db) : String);
	return {
		total: usageTotals(db, request),
		period,
		stackBy,
		series,
		points,
		days,
		projects: usageReport(db, { ...request, by: "project", limit: 8 }).rows,
		models: usageReport(db, { ...request, by: "model", limit: 8 }).rows,
		agents: usageReport(db, { ...request, by: "agent" }).rows,
		tools: toolCounts(db, request),
		sessions: expensiveSessions(db, request, 10),
		utc,
		prices: PRICE_SOURCE,
	};
}

function modelLabel(db: Database): (k: string | number) => string {
	const names = modelNames(db);
	return (k) => names.get(Number(k))?.model ?? "(no model)";
}

/** The largest `n` series by cost (then tokens) kept apart, the rest summed as "other"; one point per period. */
function stack(rows: { p: string; k: string | number; cost: number; tokens: number }[], n: number, label: (k: string | number) => string) {
	const size = new Map<string, { cost: number; tokens: number }>();
	for (const r of rows) {
		const name = label(r.k);
		const s = size.get(name) ?? { cost: 0, tokens: 0 };
		size.set(name, { cost: s.cost + (r.cost ?? 0), tokens: s.tokens + r.tokens });
	}
	const ranked = [...size].sort((a, b) => b[1].cost - a[1].cost || b[1].tokens - a[1].tokens).map(([name]) => name);
	const kept = ranked.slice(0, ranked.length > n ? n - 1 : n);
	const series = ranked.length > kept.length ? [...kept, "other"] : kept;
	const slot = (name: string) => (kept.includes(name) ? kept.indexOf(name) : series.length - 1);
	const byPeriod = new Map<string, { period: string; cost: number[]; tokens: number[] }>();
	for (const r of rows) {
		let point = byPeriod.get(r.p);
		if (!point) byPeriod.set(r.p, (point = { period: r.p, cost: series.map(() => 0), tokens: series.map(() => 0) }));
		const i = slot(label(r.k));
		point.cost[i] += r.cost ?? 0;
		point.tokens[i] += r.tokens;
	}
	return { series, points: [...byPeriod.values()] };
}

/** Tool calls and their errors in the sessions the filter takes (by their span of time: tools are summed per session). */
function toolCounts(db: Database, filter: UsageFilter): Dashboard["tools"] {
	const { where, params } = filterSql(filter, { time: "session", sessions: "s", defaultScope: "all" });
	const byTool = queryAll<ToolCount>(
		db,
		`SELECT t.tool, sum(t.calls) AS calls, sum(t.errors) AS errors FROM session_tools t JOIN sessions s ON s.id = t.session
		 WHERE ${where.join(" AND ")} GROUP BY t.tool ORDER BY calls DESC, t.tool`,
		params,
	);
	return {
		calls: byTool.reduce((n, t) => n + t.calls, 0),
		errors: byTool.reduce((n, t) => n + t.errors, 0),
		byTool: byTool.slice(0, 12),
	};
}

/** The `n` sessions that cost the most under the filter (then used the most tokens), with their summaries. */
function expensiveSessions(db: Database, filter: UsageFilter, n: number): Dashboard["sessions"] {
	const top = groupedUsage(db, filter, "h.session", "costUsd DESC, input + output + cacheRead + cacheWrite DESC", n);
	if (top.length === 0) return [];
	const ids = top.map((t) => t.k as number);
	const rows = new Map(
		queryAll<SessionRow>(db, `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id IN (${ids.map(() => "?").join(",")})`, ids).map((r) => [
			r.id,
			r,
		]),
	);
	return top.flatMap((t) => {
		const row = rows.get(t.k as number);
		if (!row) return [];
		const usage: SessionCost = {
			tokens: t.input + t.output + t.cacheRead + t.cacheWrite,
			costUsd: Math.round(t.costUsd * 1e6) / 1e6,
			...(t.estimatedUsd > 0 ? { estimated: true as const } : {}),
			...(t.unpricedMessages > 0 ? { partial: true as const } : {}),
		};
		return [{ ...sessionSummary(row), usage }];
	});
}
