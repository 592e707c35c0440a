/**
 * Which sessions a search, a browse or an omp-store action covers: one filter (project, agent, scope, time, gone),
 * compiled to SQL here and nowhere else.
 */

import type { AgentKind } from "../parse/source.js";
import { containsPattern } from "../read/project.js";
import { timeBound } from "../text/time.js";

/** "all" includes omp sub-agent transcripts, "top" leaves them out. */
export const SCOPES = ["top", "all"] as const;
export type Scope = (typeof SCOPES)[number];

/** Sessions whose file the agent removed (read from lookback's archive): "only" those, or "exclude" them; both by default. */
export const GONE_FILTERS = ["only", "exclude"] as const;
export type GoneFilter = (typeof GONE_FILTERS)[number];

export interface SessionFilter {
	/** Substring of the session's cwd or name (case-insensitive for ASCII). */
	project?: string;
	/** Only sessions written by this agent. */
	agent?: AgentKind;
	/** Sub-agent transcripts in or out (default: `DEFAULTS.searchScope` for a search, `DEFAULTS.browseScope` for a browse). */
	scope?: Scope;
	/** At or after this time: a date, an ISO datetime, an age (`3d`), or epoch ms. */
	since?: string | number;
	/** Before this time (a plain date includes that day). */
	until?: string | number;
	/** Only the sessions whose file is gone, or none of them (default: both). */
	gone?: GoneFilter;
	/** Clock for relative times (tests). */
	now?: number;
}

/** SQL conditions, ANDed, and their parameters in order. */
export interface FilterSql {
	where: string[];
	params: (string | number)[];
}

/**
 * What the time bounds apply to. A search filters the matching entry by its own time (`entry`: an alias of
 * `entries`); a browse filters sessions whose span [started, modified] overlaps the bounds (`session`).
 */
export type FilterTarget = (
	| { time: "entry"; sessions: string; entries: string; defaultScope: Scope }
	| { time: "session"; sessions: string; defaultScope: Scope }
) & {
	/** Summarisers' transcripts in too (usage counts their calls; search and browse never show them). */
	summarisers?: true;
};

/** The filter as SQL over `sessions` (and `entries`) aliased as the target says. @throws LookbackError("bad-argument") for a time it cannot read. */
export function filterSql(filter: SessionFilter, target: FilterTarget): FilterSql {
	const s = target.sessions ? `${target.sessions}.` : "";
	// Always on, so one clause with the first: a caller counts the filters a person set by the clauses after it.
	const where = [`${s}session_id IS NOT NULL${target.summarisers ? "" : ` AND ${s}kind != 'summariser'`}`];
	const params: (string | number)[] = [];
	const since = timeBound(filter.since, "start", filter.now);
	const until = timeBound(filter.until, "end", filter.now);
	if (target.time === "entry") {
		if (since !== undefined) where.push(`${target.entries}.ts >= ?`);
		if (until !== undefined) where.push(`${target.entries}.ts < ?`);
	} else {
		if (since !== undefined) where.push(`${s}modified >= ?`);
		if (until !== undefined) where.push(`${s}started < ?`);
	}
	if (since !== undefined) params.push(since);
	if (until !== undefined) params.push(until);
	if ((filter.scope ?? target.defaultScope) === "top") where.push(`${s}kind != 'subagent'`);
	if (filter.agent) {
		where.push(`${s}agent = ?`);
		params.push(filter.agent);
	}
	if (filter.gone === "only") where.push(`${s}gone_at IS NOT NULL`);
	else if (filter.gone === "exclude") where.push(`${s}gone_at IS NULL`);
	if (filter.project) {
		where.push(`(${s}cwd LIKE ? ESCAPE '\\' OR ${s}name LIKE ? ESCAPE '\\')`);
		params.push(containsPattern(filter.project), containsPattern(filter.project));
	}
	return { where, params };
}

/** The filter's own fields of a larger request (a store action passes its filter on to browse). */
export function sessionFilterOf(request: SessionFilter): SessionFilter {
	const { project, agent, scope, since, until, gone, now } = request;
	return { project, agent, scope, since, until, gone, now };
}
