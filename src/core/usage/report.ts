/**
 * What the sessions used, summed in SQL: tokens, cost, sessions, messages and tool calls, grouped by day, week,
 * month, project, model, agent or session, under the same filter as search and browse. Only the per-session sums
 * are read (`usage_hours`, `session_tools`, and `sessions` for the filter), never the messages: a page reading the
 * index by HTTP ranges fetches a few hundred KB, and the CLI sums a year of sessions in milliseconds.
 */

import { filterSql, type SessionFilter } from "../query/session-filter.js";
import { projectName } from "../read/project.js";
import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { PRICE_SOURCE } from "./prices.js";

export const USAGE_GROUPS = ["day", "week", "month", "project", "model", "agent", "session"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageFilter extends SessionFilter {
	/** Days, weeks and months in UTC rather than the local time zone. */
	utc?: boolean;
	/** Days, weeks and months in this IANA time zone (`Europe/Berlin`) rather than the local one. */
	timeZone?: string;
	/** Only the session with this row id (a reader's). */
	sessionRow?: number;
}

export interface UsageRequest extends UsageFilter {
	by?: UsageGroup;
	/** Rows for the groups that are not periods (most expensive first); default 50. */
	limit?: number;
	/** Only the last this many days, weeks or months (the totals theirs). */
	last?: number;
}

/** Sums over a set of messages. Field names are the stable JSON shape (README, "lookback usage"). */
export interface UsageTotals {
	sessions: number;
	/** Model answers (usage an agent reported apart from an answer adds tokens, not messages). */
	messages: number;
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	/** All four kinds of tokens. */
	tokens: number;
	/** USD: as the sessions recorded it, plus the estimates. */
	costUsd: number;
	/** The part of `costUsd` estimated from the price table (sessions that recorded tokens but no cost). */
	estimatedUsd: number;
	/** Messages with tokens the table has no price for: `costUsd` leaves them out. */
	unpricedMessages: number;
	toolCalls: number;
}

export interface UsageRow extends UsageTotals {
	/** The group: YYYY-MM-DD (a week by its Monday), YYYY-MM, a project's name, a model id, an agent, a session id. */
	key: string;
	/** A model's provider. */
	provider?: string;
	/** A session's title, agent and project. */
	name?: string;
	agent?: string;
	project?: string;
}

export interface UsageReport {
	by: UsageGroup;
	rows: UsageRow[];
	total: UsageTotals;
	/** Whether days are UTC days (else the local time zone's). */
	utc: boolean;
	/** Where the estimated prices come from. */
	prices: string;
}

export const SUMS = `count(DISTINCT h.session) AS sessions, coalesce(sum(h.messages), 0) AS messages, coalesce(sum(h.input), 0) AS input,
 coalesce(sum(h.output), 0) AS output, coalesce(sum(h.cache_read), 0) AS cacheRead, coalesce(sum(h.cache_write), 0) AS cacheWrite,
 coalesce(sum(h.cost), 0) AS costUsd, coalesce(sum(h.estimated), 0) AS estimatedUsd, coalesce(sum(h.unpriced), 0) AS unpricedMessages,
 coalesce(sum(h.tools), 0) AS toolCalls`;

/** `usage_hours` with each bucket's start as `ts`, so the session filter's time bounds apply to it (to the hour). */
export const HOURS = "(SELECT *, hour * 3600000 AS ts FROM usage_hours)";
/** `session_tools` the same way: tool calls are cut by the same bounds as the tokens of the answers that made them. */
export const TOOL_HOURS = "(SELECT *, hour * 3600000 AS ts FROM session_tools)";

/** The filter over `usage_hours` or `session_tools` (aliased h) and `sessions` (s); sub-agents count by default, their tokens were spent too. */
export function usageWhere(filter: UsageFilter): { where: string; params: (string | number)[]; conditions: string[] } {
	const { where, params } = filterSql(filter, { time: "entry", sessions: "s", entries: "h", defaultScope: "all", summarisers: true });
	if (filter.sessionRow !== undefined) {
		where.push("h.session = ?");
		params.push(filter.sessionRow);
	}
	return { where: where.join(" AND "), params, conditions: where };
}

/** The session filter's standing condition: a file with no header has no session id, and is no session to count. */
const HAS_ID = "s.session_id IS NOT NULL";

/**
 * `FROM` and `WHERE` of a usage query over `table` (aliased h): joined to `sessions` (s) only when the filter or the
 * grouping (`keyOnSessions`) reads a session's own columns. The standing condition holds of every row when no
 * session lacks an id, which one lookup in its index tells; the join then reads the sessions' pages for nothing
 * (9 of the 30 ms of a grouping at 2 GB on wasm, twice in a report).
 */
export function usageFrom(
	db: Database,
	filter: UsageFilter,
	options: { table?: string; keyOnSessions?: boolean } = {},
): { from: string; params: (string | number)[] } {
	const { where, params, conditions } = usageWhere(filter);
	const table = options.table ?? HOURS;
	const rest = conditions.filter((c) => c !== HAS_ID);
	const onSessions = options.keyOnSessions === true || rest.some((c) => /\bs\./.test(c));
	if (onSessions || queryOne(db, "SELECT 1 AS idless FROM sessions WHERE session_id IS NULL LIMIT 1"))
		return { from: `FROM ${table} h JOIN sessions s ON s.id = h.session WHERE ${where}`, params };
	return { from: `FROM ${table} h${rest.length > 0 ? ` WHERE ${rest.join(" AND ")}` : ""}`, params };
}

/**
 * The local time zone's offsets from UTC (seconds) over the hours `first` to `last` (hours since the epoch): the
 * offset at `first`, then each change, at the first hour it applies to. Read from JavaScript's Date, as
 * Emscripten's localtime() does for SQLite in the wasm engine (and the OS's zone database, which Node's Date also
 * reads, for the built-in one).
 */
export function localOffsets(first: number, last: number, timeZone?: string): { from: number; offset: number }[] {
	const zoned = timeZone ? zoneOffset(timeZone) : undefined;
	const offsetAt = (hour: number) => (zoned ? zoned(hour * 3_600_000) : -new Date(hour * 3_600_000).getTimezoneOffset() * 60);
	const out = [{ from: first, offset: offsetAt(first) }];
	// A day at a time (clocks change months apart), then the hour of a change found by halving.
	for (let at = first; at < last; ) {
		const next = Math.min(last, at + 24);
		const offset = out[out.length - 1].offset;
		if (offsetAt(next) === offset) {
			at = next;
			continue;
		}
		let [same, changed] = [at, next];
		while (changed - same > 1) {
			const mid = Math.floor((same + changed) / 2);
			if (offsetAt(mid) === offset) same = mid;
			else changed = mid;
		}
		out.push({ from: changed, offset: offsetAt(changed) });
		at = changed;
	}
	return out;
}

/** A time zone's offset from UTC (seconds) at a time, read from Intl. @throws RangeError for a zone Intl does not know. */
export function zoneOffset(timeZone: string): (ms: number) => number {
	const format = new Intl.DateTimeFormat("en-US", {
		timeZone,
		hourCycle: "h23",
		year: "numeric",
		month: "numeric",
		day: "numeric",
		hour: "numeric",
		minute: "numeric",
	});
	return (ms) => {
		const p = Object.fromEntries(format.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
		const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
		return Math.round((wall - Math.floor(ms / 60_000) * 60_000) / 1000);
	};
}

/**
 * SQL of the offset from UTC (seconds) of the local time zone at a bucket `h.hour`, or 0 in UTC. Not SQLite's
 * 'localtime' modifier: it asks the C library for each row, which in the wasm engine is a call out to JavaScript's
 * Date (measured: 44 of the dashboard's 60 ms at 2,714 buckets). A zone's offset over the hours the index holds
 * changes rarely (twice a year where clocks change), so the offsets are looked up once and written into the SQL.
 */
function offsetSql(db: Database, utc: boolean, timeZone?: string): string {
	if (utc) return "0";
	const span = queryOne<{ first: number | null; last: number | null }>(db, "SELECT min(hour) AS first, max(hour) AS last FROM usage_hours");
	const offsets = localOffsets(span?.first ?? 0, span?.last ?? 0, timeZone);
	// Integers computed here, never text from the index: safe to write into the statement.
	const changes = offsets
		.slice(1)
		.reverse()
		.map((o) => `WHEN h.hour >= ${o.from} THEN ${o.offset} `)
		.join("");
	return changes ? `CASE ${changes}ELSE ${offsets[0].offset} END` : String(offsets[0].offset);
}

/** SQL of the day (YYYY-MM-DD) a bucket `h.hour` starts on, in UTC or in the local time zone. */
export function daySql(db: Database, utc: boolean, timeZone?: string): string {
	return `date(h.hour * 3600 + ${offsetSql(db, utc, timeZone)}, 'unixepoch')`;
}

/**
 * A period's SQL key and its name. Days and weeks are numbered in SQL and named here: SQLite's date() for every
 * bucket was 11 of a one-shot report's 60 ms at 2 GB (10,882 buckets; wasm without its optimising tier).
 */
function period(
	db: Database,
	by: "day" | "week" | "month",
	utc: boolean,
	timeZone?: string,
): { key: string; name: (k: unknown) => string } {
	const offset = offsetSql(db, utc, timeZone);
	const isoDay = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);
	// Days since 1970-01-01, a Thursday: a week (from its Monday) is 3 days further on, 7 at a time.
	const day = `(h.hour * 3600 + ${offset}) / 86400`;
	if (by === "day") return { key: day, name: (k) => isoDay(Number(k)) };
	if (by === "week") return { key: `(${day} + 3) / 7`, name: (k) => isoDay(Number(k) * 7 - 3) };
	return { key: `substr(date(h.hour * 3600 + ${offset}, 'unixepoch'), 1, 7)`, name: String };
}

export function totalsOf(r: Omit<UsageTotals, "tokens">): UsageTotals {
	const round = (x: number) => Math.round(x * 1e6) / 1e6;
	return {
		sessions: r.sessions,
		messages: r.messages,
		input: r.input,
		output: r.output,
		cacheRead: r.cacheRead,
		cacheWrite: r.cacheWrite,
		tokens: r.input + r.output + r.cacheRead + r.cacheWrite,
		costUsd: round(r.costUsd),
		estimatedUsd: round(r.estimatedUsd),
		unpricedMessages: r.unpricedMessages,
		toolCalls: r.toolCalls,
	};
}

/**
 * The sums under a filter, all of them: from every row of a grouping that left none out (its sums added here, the
 * sessions counted apart: one may fall in several groups), or summed again in SQL. The second pass over every
 * bucket was 16 of a one-shot `--by day`'s 60 ms at 2 GB; the count alone takes 6.
 */
function usageTotals(db: Database, filter: UsageFilter, every?: readonly Summed[]): UsageTotals {
	const { from, params } = usageFrom(db, filter);
	if (!every) return totalsOf(queryOne<UsageTotals>(db, `SELECT ${SUMS} ${from}`, params)!);
	const sum = (field: keyof Omit<Summed, "k" | "provider" | "sessions">) => every.reduce((n, r) => n + r[field], 0);
	return totalsOf({
		sessions: queryOne<{ n: number }>(db, `SELECT count(DISTINCT h.session) AS n ${from}`, params)?.n ?? 0,
		messages: sum("messages"),
		input: sum("input"),
		output: sum("output"),
		cacheRead: sum("cacheRead"),
		cacheWrite: sum("cacheWrite"),
		costUsd: sum("costUsd"),
		estimatedUsd: sum("estimatedUsd"),
		unpricedMessages: sum("unpricedMessages"),
		toolCalls: sum("toolCalls"),
	});
}

export type Summed = Omit<UsageTotals, "tokens"> & { k: string | number | null; provider?: string };

/** The sums grouped by an SQL expression, in `order`, at most `limit` groups. */
function groupedUsage(db: Database, filter: UsageFilter, key: string, order = "k", limit?: number): Summed[] {
	const { from, params } = usageFrom(db, filter, { keyOnSessions: /\bs\./.test(key) });
	return queryAll<Summed>(
		db,
		`SELECT ${key} AS k, ${SUMS} ${from} GROUP BY 1 ORDER BY ${order}${limit ? ` LIMIT ${Math.trunc(limit)}` : ""}`,
		params,
	);
}

export const byCost = (a: UsageTotals, b: UsageTotals) => b.costUsd - a.costUsd || b.tokens - a.tokens;

/** A project's rows: one per cwd in SQL, the same name from several folders summed here (sessions are disjoint). */
export function byProject(rows: Summed[]): UsageRow[] {
	const out = new Map<string, UsageRow>();
	for (const r of rows) {
		const key = projectName(r.k as string | null) || "(no project)";
		const seen = out.get(key);
		const t = totalsOf(r);
		if (!seen) out.set(key, { key, ...t });
		else for (const f of Object.keys(t) as (keyof UsageTotals)[]) seen[f] += t[f];
	}
	return [...out.values()].sort(byCost);
}

/** The usage report: the sums by group and in all. */
export function usageReport(db: Database, request: UsageRequest = {}): UsageReport {
	const by = request.by ?? "day";
	const utc = request.utc ?? false;
	const limit = Math.max(1, request.limit ?? 50);
	/** The groups of a grouping that leaves none out in SQL: the totals are their sums. */
	let every: Summed[] | undefined;
	let rows: UsageRow[];
	switch (by) {
		case "day":
		case "week":
		case "month": {
			const { key, name } = period(db, by, utc, request.timeZone);
			every = groupedUsage(db, request, key);
			if (request.last !== undefined && every.length > request.last) {
				every = every.slice(-Math.max(1, request.last));
				// The totals of the periods shown: their sums, and the sessions counted over them.
				const first = every[0].k;
				const bound = typeof first === "number" ? String(Math.trunc(first)) : `'${String(first).replace(/[^0-9-]/g, "")}'`;
				const kept = every;
				rows = kept.map((r) => ({ key: name(r.k), ...totalsOf(r) }));
				const { from, params } = usageFrom(db, request);
				const sessions =
					queryOne<{ n: number }>(
						db,
						`SELECT count(DISTINCT h.session) AS n ${from}${/ WHERE /.test(from) ? " AND" : " WHERE"} ${key} >= ${bound}`,
						params,
					)?.n ?? 0;
				const total = usageTotals(db, request, kept);
				return { by, rows, total: { ...total, sessions }, utc, prices: PRICE_SOURCE };
			}
			rows = every.map((r) => ({ key: name(r.k), ...totalsOf(r) }));
			break;
		}
		case "project":
			every = groupedUsage(db, request, "s.cwd");
			rows = byProject(every).slice(0, limit);
			break;
		case "agent":
			every = groupedUsage(db, request, "s.agent");
			rows = every.map((r) => ({ key: String(r.k), ...totalsOf(r) })).sort(byCost);
			break;
		case "model":
			rows = withModelNames(
				db,
				groupedUsage(db, request, "h.model", "costUsd DESC, input + output DESC", limit).map((r) => ({ key: String(r.k), ...totalsOf(r) })),
			);
			break;
		case "session":
			rows = sessionRows(db, groupedUsage(db, request, "h.session", "costUsd DESC, input + output DESC", limit));
			break;
	}
	return { by, rows, total: usageTotals(db, request, every), utc, prices: PRICE_SOURCE };
}

/** The models the index knows, by their number. */
export function modelNames(db: Database): Map<number, { provider: string; model: string }> {
	return new Map(
		queryAll<{ id: number; provider: string; model: string }>(db, "SELECT id, provider, model FROM models").map((m) => [m.id, m]),
	);
}

/** Model ids in place of their numbers (0: messages that named no model). */
export function withModelNames(db: Database, rows: UsageRow[]): UsageRow[] {
	const names = modelNames(db);
	return rows.map((r) => {
		const m = names.get(Number(r.key));
		return { ...r, key: m?.model ?? "(no model)", ...(m?.provider ? { provider: m.provider } : {}) };
	});
}

/** A session's rows with what names it. */
function sessionRows(db: Database, rows: Summed[]): UsageRow[] {
	if (rows.length === 0) return [];
	const facts = new Map(
		queryAll<{ id: number; session_id: string; name: string | null; first_prompt: string | null; agent: string; cwd: string | null }>(
			db,
			`SELECT id, session_id, name, first_prompt, agent, cwd FROM sessions WHERE id IN (${rows.map(() => "?").join(",")})`,
			rows.map((r) => r.k as number),
		).map((s) => [s.id, s]),
	);
	return rows.map((r) => {
		const s = facts.get(r.k as number);
		const name = s?.name ?? s?.first_prompt?.split("\n")[0];
		return {
			key: s?.session_id ?? String(r.k),
			...(name ? { name } : {}),
			...(s ? { agent: s.agent, project: projectName(s.cwd) } : {}),
			...totalsOf(r),
		};
	});
}
