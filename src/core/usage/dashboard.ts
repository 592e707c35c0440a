/**
 * The viewer's dashboard in one call: cost and tokens over time stacked by model or agent, activity per day for a
 * calendar, the top projects and models, tool calls with their errors, and the most expensive sessions. Every figure
 * is summed in SQL over the per-session sums (report.ts); the page gets a few hundred numbers, never rows of messages.
 */

import { SESSION_COLUMNS, type SessionRow, type SessionSummary, sessionSummary } from "../read/session-rows.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { type BlockReport, usageBlocks } from "./blocks.js";
import { PRICE_SOURCE } from "./prices.js";
import {
	byCost,
	byProject,
	daySql,
	HOURS,
	modelNames,
	SUMS,
	type Summed,
	TOOL_HOURS,
	totalsOf,
	type UsageFilter,
	type UsageRow,
	type UsageTotals,
	usageFrom,
	usageWhere,
	withModelNames,
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
	/** The last billing blocks under the filter (five-hour windows, blocks.ts), oldest first, and the active one's rates. */
	blocks: BlockReport["blocks"];
	activeBlock?: BlockReport["active"];
	utc: boolean;
	/** Where the estimated prices come from. */
	prices: string;
}

/** The chart's period: days over a span of at most this many days, weeks over at most this many, else months. */
const DAY_CHART_DAYS = 120;
const WEEK_CHART_DAYS = 3 * 365;
/** The most expensive sessions listed; the top projects and models. */
const SESSIONS_SHOWN = 10;
const TOP = 8;

type Group = "total" | "period" | "day" | "stack" | "project" | "model" | "agent" | "session";

/**
 * Every sum of the dashboard but the tools' in one statement, each row tagged with its group `g`: the buckets under
 * the filter are joined to their sessions and their local day worked out once (`d`, a row a session, day and
 * model), then each group sums those rows. Asked apart (ten statements), each group joined and dated every bucket
 * again: measured in Node on the 500 MB benchmark's index (2,714 buckets), 50 → 36 ms a dashboard in UTC, 109 → 62 ms
 * in Europe/Berlin (with daySql's offsets).
 */
function dashboardSums(
	db: Database,
	request: DashboardRequest,
	stackBy: "model" | "agent",
): (Summed & { g: Group; k2: string | number | null })[] {
	const { where, params } = usageWhere(request);
	const day = daySql(db, request.utc ?? false);
	// The period's row has no sums: a NULL for each column of SUMS.
	const none = Array.from({ length: SUMS.split(" AS ").length - 1 }, () => "NULL").join(", ");
	return queryAll(
		db,
		`WITH d AS MATERIALIZED (
		   SELECT h.session AS session, ${day} AS day, h.model AS model, s.cwd AS cwd, s.agent AS agent, sum(h.messages) AS messages,
		     sum(h.input) AS input, sum(h.output) AS output, sum(h.cache_read) AS cache_read, sum(h.cache_write) AS cache_write,
		     sum(h.cost) AS cost, sum(h.estimated) AS estimated, sum(h.unpriced) AS unpriced, sum(h.tools) AS tools
		   FROM ${HOURS} h JOIN sessions s ON s.id = h.session WHERE ${where} GROUP BY 1, 2, 3),
		 span AS (SELECT CASE WHEN min(day) IS NULL OR julianday(max(day)) - julianday(min(day)) <= ${DAY_CHART_DAYS} THEN 'day'
		   WHEN julianday(max(day)) - julianday(min(day)) <= ${WEEK_CHART_DAYS} THEN 'week' ELSE 'month' END AS period FROM d)
		 SELECT 'total' AS g, NULL AS k, NULL AS k2, ${SUMS} FROM d h
		 UNION ALL SELECT 'period', period, NULL, ${none} FROM span
		 UNION ALL SELECT 'day', h.day, NULL, ${SUMS} FROM d h GROUP BY h.day
		 UNION ALL SELECT 'stack', CASE (SELECT period FROM span) WHEN 'day' THEN h.day WHEN 'week' THEN date(h.day, 'weekday 0', '-6 days')
		   ELSE substr(h.day, 1, 7) END, h.${stackBy}, ${SUMS} FROM d h GROUP BY 2, 3
		 UNION ALL SELECT 'project', h.cwd, NULL, ${SUMS} FROM d h GROUP BY h.cwd
		 UNION ALL SELECT 'model', h.model, NULL, ${SUMS} FROM d h GROUP BY h.model
		 UNION ALL SELECT 'agent', h.agent, NULL, ${SUMS} FROM d h GROUP BY h.agent
		 UNION ALL SELECT * FROM (SELECT 'session', h.session, NULL, ${SUMS} FROM d h GROUP BY h.session
		   ORDER BY costUsd DESC, input + output + cacheRead + cacheWrite DESC LIMIT ${SESSIONS_SHOWN})`,
		params,
	);
}

/** How many of the last blocks the dashboard lists. */
const BLOCKS_SHOWN = 6;

function lastBlocks(db: Database, request: DashboardRequest): Pick<Dashboard, "blocks" | "activeBlock"> {
	const r = usageBlocks(db, { ...request, last: BLOCKS_SHOWN });
	return { blocks: r.blocks, ...(r.active ? { activeBlock: r.active } : {}) };
}

const tokensOf = (r: Omit<UsageTotals, "tokens">) => r.input + r.output + r.cacheRead + r.cacheWrite;

export function usageDashboard(db: Database, request: DashboardRequest = {}): Dashboard {
	const utc = request.utc ?? false;
	const stackBy = request.stackBy ?? "model";
	const sums = dashboardSums(db, request, stackBy);
	const of = (g: Group) => sums.filter((r) => r.g === g);
	const byKey = (a: Summed, b: Summed) => (String(a.k) < String(b.k) ? -1 : String(a.k) > String(b.k) ? 1 : 0);
	const days = of("day")
		.sort(byKey)
		.map((d) => ({
			day: String(d.k),
			sessions: d.sessions,
			messages: d.messages,
			costUsd: Math.round(d.costUsd * 1e6) / 1e6,
			tokens: tokensOf(d),
		}));
	const stacked = of("stack")
		.sort(byKey)
		.map((r) => ({ p: String(r.k), k: r.k2 ?? "", cost: r.costUsd, tokens: tokensOf(r) }));
	const { series, points } = stack(stacked, request.series ?? 6, stackBy === "model" ? modelLabel(db) : String);
	const models = of("model")
		.map((r) => ({ key: String(r.k), ...totalsOf(r) }))
		.sort((a, b) => b.costUsd - a.costUsd || b.input + b.output - (a.input + a.output))
		.slice(0, TOP);
	return {
		total: totalsOf(of("total")[0]),
		period: (of("period")[0]?.k as Dashboard["period"] | undefined) ?? "day",
		stackBy,
		series,
		points,
		days,
		projects: byProject(of("project")).slice(0, TOP),
		models: withModelNames(db, models),
		agents: of("agent")
			.map((r) => ({ key: String(r.k), ...totalsOf(r) }))
			.sort(byCost),
		tools: toolCounts(db, request),
		sessions: expensiveSessions(db, of("session")),
		...lastBlocks(db, request),
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

/**
 * Tool calls and their errors under the filter, cut to the hour as every other figure is (each call in the hour of the
 * answer that made it): the calls are `lookback usage`'s `toolCalls` under the same filter.
 */
function toolCounts(db: Database, filter: UsageFilter): Dashboard["tools"] {
	const { from, params } = usageFrom(db, filter, { table: TOOL_HOURS });
	const byTool = queryAll<ToolCount>(
		db,
		`SELECT h.tool, sum(h.calls) AS calls, sum(h.errors) AS errors ${from} GROUP BY h.tool ORDER BY calls DESC, h.tool`,
		params,
	);
	return {
		calls: byTool.reduce((n, t) => n + t.calls, 0),
		errors: byTool.reduce((n, t) => n + t.errors, 0),
		byTool: byTool.slice(0, 12),
	};
}

/** The sessions that cost the most under the filter (`top`, summed with the rest), with their summaries. */
function expensiveSessions(db: Database, top: Summed[]): Dashboard["sessions"] {
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
