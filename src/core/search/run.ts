/**
 * The SQL of a search: FTS5 ranks the matches (BM25 with role weights) inside its fast path, the ranked rows
 * are joined to their entries and sessions and filtered; or entries ranked by their words are looked up.
 */

import type { BranchState } from "../parse/branch.js";
import { ROLES, type Role } from "../parse/entry-text.js";
import type { CompiledQuery } from "../query/compile.js";
import type { FilterSql } from "../query/session-filter.js";
import { SESSION_COLUMNS, type SessionRow } from "../read/session-rows.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { OWN_COLUMNS, STATE_NAME } from "../store/schema.js";
import type { SearchRequest } from "./search.js";

/** The FTS5 tables a query runs on: positions for the stored text, words only for the whole text of cut entries. */
export type Table = "entries_fts" | "entries_deep";

/** What every stage of one search shares: the filter as SQL, the roles, and the request's bounds. */
export interface SearchPlan extends Pick<SearchRequest, "exclude" | "readRange"> {
	filter: FilterSql;
	roles: Role[];
	states: BranchState[];
	limit: number;
	rankWindow: number;
	/** How the search's queries name the entries table (`e`): through the covering index where the file has one (entriesFrom). */
	entries: string;
	/** The index holds boilerplate many sessions share (sync/shared-text.ts): the last tier reads it. */
	shared: boolean;
}

/** A matching entry, best first. */
export interface Candidate {
	id: number;
	session: number;
	entry_id: string;
	role: Role;
	type: string;
	ts: number | null;
	state: number;
	chars: number | null;
	score: number;
}

/**
 * The `entries` columns a search reads for each ranked match (a read snapshot covers them with an index). All of
 * them precede the stored text in the row: a column after a long text is read through its overflow pages.
 */
export const CANDIDATE_FIELDS = ["id", "session", "entry_id", "role", "type", "ts", "state", "chars"] as const;
/** The covering index of CANDIDATE_FIELDS a read snapshot adds (src/node/read-snapshot.ts). */
export const CANDIDATE_INDEX = "entries_candidates";

/**
 * The entries table as a search's queries name it: through the covering index where the open file has it (a read
 * snapshot). Named, not left to SQLite's planner, which takes the index over the rows only for some sizes of table.
 */
export function entriesFrom(db: Database): string {
	const indexed = queryAll(db, "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", [CANDIDATE_INDEX]).length > 0;
	return indexed ? `entries e INDEXED BY ${CANDIDATE_INDEX}` : "entries e";
}
const CANDIDATE_COLUMNS = CANDIDATE_FIELDS.map((field) => `e.${field}`).join(", ");

/** Conditions on the joined entry (e) and session (s). */
function whereOf(plan: SearchPlan, table: Table): { where: string[]; params: (string | number)[] } {
	const roles = plan.roles.filter((r) => ROLES.includes(r));
	// The deep table has one column: roles are the entry's.
	const byRole = table !== "entries_fts" && roles.length > 0 ? [`e.role IN (${roles.map((r) => `'${r}'`).join(",")})`] : [];
	const states = plan.states.map((name) => STATE_NAME.indexOf(name)).filter((code) => code >= 0);
	const byState = states.length > 0 ? [`e.state IN (${states.join(",")})`] : [];
	return { where: [...plan.filter.where, ...byRole, ...byState], params: plan.filter.params };
}

/**
 * An FTS5 expression of the positional table limited to a session's own words (its roles' columns, the roles a
 * search filters by), or with `shared` to the boilerplate too (sync/shared-text.ts): a user or meta filter reads
 * the shared blocks of user and meta text.
 */
export function ownMatch(match: string, roles: Role[], shared = false): string {
	const kept = roles.filter((r) => ROLES.includes(r));
	if (kept.length === 0) return shared ? match : `${OWN_COLUMNS} : (${match})`;
	const columns = shared && kept.some((r) => r === "user" || r === "meta") ? [...kept, "shared"] : kept;
	return `{${columns.join(" ")}} : (${match})`;
}

/** The rowids of a query's newest `count` matches, newest first (as one row of text: sql.js builds an object per row). */
function newestMatches(db: Database, table: Table, match: string, count: number): number[] {
	const ids = queryAll<{ ids: string | null }>(
		db,
		`SELECT group_concat(id) AS ids FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?)`,
		[match, count],
	)[0]?.ids;
	return ids
		? ids
				.split(",")
				.map(Number)
				.sort((a, b) => b - a)
		: [];
}

/** For a query with more than `window` matches, the rowid of its window-th newest match. */
function newestWindowStart(db: Database, table: Table, match: string, window: number): number | undefined {
	const row = queryAll<{ id: number }>(db, `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`, [
		match,
		window,
	])[0];
	return row?.id;
}

/**
 * The entries matching a compiled query, best first. A query with more matches than the rank window is
 * ranked among its newest matches; when filters leave too few sessions there, the window widens (x8) until
 * they do or every match is ranked. The first pass reads the newest matches' rowids only: a query matching
 * nothing (the usual fate of a long question as typed) costs that one pass and no ranking, and the ranking
 * starts at the oldest match it needs.
 */
export function rankedCandidates(
	db: Database,
	query: CompiledQuery,
	plan: SearchPlan,
	table: Table,
	shared = false,
): { candidates: Candidate[]; rankedNewest?: number } {
	const match = table === "entries_fts" ? ownMatch(query.match, plan.roles, shared) : query.match;
	const newest = newestMatches(db, table, match, plan.rankWindow + 1);
	if (newest.length === 0) return { candidates: [] };
	const { where, params } = whereOf(plan, table);
	let candidates: Candidate[] = [];
	let rankedNewest = newest.length > plan.rankWindow ? plan.rankWindow : undefined;
	let from = newest[Math.min(plan.rankWindow, newest.length - 1)] as number | undefined;
	for (let window = plan.rankWindow; ; ) {
		const ranked = `SELECT rowid AS rid, rank AS score FROM ${table} WHERE ${table} MATCH ?${from !== undefined ? " AND rowid >= ?" : ""} ORDER BY rank`;
		candidates = queryAll<Candidate>(
			db,
			`SELECT ${CANDIDATE_COLUMNS}, c.score FROM (${ranked}) c CROSS JOIN ${plan.entries} ON e.id = c.rid CROSS JOIN sessions s ON s.id = e.session WHERE ${where.join(" AND ")} ORDER BY c.score, e.id DESC`,
			from !== undefined ? [match, from, ...params] : [match, ...params],
		);
		const filtered = where.length > 1;
		if (rankedNewest === undefined || !filtered || new Set(candidates.map((c) => c.session)).size >= plan.limit) break;
		window *= 8;
		from = newestWindowStart(db, table, match, window);
		rankedNewest = from !== undefined ? window : undefined;
	}
	return { candidates, rankedNewest };
}

/** The entries of these rowids that the plan's filters keep (in no particular order). */
export function filteredEntries(db: Database, ids: number[], plan: SearchPlan): Candidate[] {
	if (ids.length === 0) return [];
	const { where, params } = whereOf(plan, "entries_deep");
	return queryAll<Candidate>(
		db,
		`SELECT ${CANDIDATE_COLUMNS}, 0 AS score FROM ${plan.entries} CROSS JOIN sessions s ON s.id = e.session WHERE e.id IN (${ids.join(",")}) AND ${where.join(" AND ")}`,
		params,
	);
}

/** The session rows of the candidates, by rowid. */
export function sessionRows(db: Database, candidates: Candidate[]): Map<number, SessionRow> {
	const ids = [...new Set(candidates.map((c) => c.session))];
	return new Map(
		queryAll<SessionRow>(db, `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id IN (${ids.join(",")})`).map((row) => [row.id, row]),
	);
}

/** Where an entry's line lies in its session file (bytes), for a snippet of text the index did not keep. */
export interface LineAt {
	off: number | null;
	len: number | null;
}

/** The stored body of an entry, and where its line lies. */
export function storedEntry(db: Database, entryRowid: number): { body: unknown } & LineAt {
	return (
		queryAll<{ body: unknown } & LineAt>(db, "SELECT body, off, len FROM entries WHERE id = ?", [entryRowid])[0] ?? {
			body: undefined,
			off: null,
			len: null,
		}
	);
}
