/**
 * Discovery: a query and filters → sessions ranked by their best matching entry (BM25 with role weights),
 * each with its hit count and a marked snippet. A fork that matched on the same entry as its parent
 * collapses into the parent. User text never surfaces as an SQL error.
 */

import { decodeBody } from "./body-codec.js";
import { DEFAULTS } from "./defaults.js";
import type { Database } from "./engine.js";
import { queryAll } from "./engine.js";
import { errorMessage } from "./errors.js";
import { ROLES, type Role } from "./entry-text.js";
import { containsPattern } from "./project.js";
import { compileQuery, type CompiledQuery, type Expander } from "./query-compile.js";
import { parseQuery, type QueryNode } from "./query-parser.js";
import { type SessionRow, sessionSummary, type SessionSummary, SESSION_COLUMNS } from "./session-rows.js";
import { STATE_NAME } from "./schema.js";
import { spawningEntry } from "./sessions.js";
import { makeSnippet } from "./snippet.js";

/** A sub-agent transcript is `<session>/<agent name>.jsonl`. */
function agentNameOf(path: string): string {
	return (path.split(/[\\/]/).pop() ?? "").replace(/\.jsonl$/, "");
}
import { timeBound } from "./time.js";
import { wordsOf } from "./words.js";

export interface SearchRequest {
	query: string;
	/** Only entries at or after this time: a date, an ISO datetime, an age (`3d`), or epoch ms. */
	since?: string | number;
	/** Only entries before this time (a plain date includes that day). */
	until?: string | number;
	/** Substring of the session's cwd or name (case-insensitive for ASCII). */
	project?: string;
	/** Only text of these roles. */
	role?: Role | Role[];
	/** Sessions to return (default 10, at most 200). */
	limit?: number;
	/** "all" (default) includes omp sub-agent transcripts, "top" leaves them out. */
	scope?: "top" | "all";
	/** Only sessions written by this agent. */
	agent?: "pi" | "omp";
	/** Clock for relative times (tests). */
	now?: number;
	/** Entries never to return, e.g. what the asking agent already has in context: session rowid → entry ids. */
	exclude?: (hit: { sessionPath: string; entryId: string }) => boolean;
}

/** One session that matched, with its best entry. */
export interface SearchHit extends SessionSummary {
	entryId: string;
	role: Role;
	/** Entry or message type: user, assistant, toolResult, bashExecution, compaction, … */
	type: string;
	/** Time of the matching entry (ISO). */
	time?: string;
	/** active (in context on the active branch), compacted (on the active branch before a compaction), abandoned. */
	branchState: "active" | "abandoned" | "compacted";
	snippet: string;
	/** Matching entries in this session (among the newest `rankedNewest` matches when the response says so). */
	hits: number;
	/** BM25 score of the best entry (lower is better, as FTS5 reports it). */
	score: number;
	/** Forks that matched on the same entry and were folded into this result. */
	forks: { sessionId: string; path: string }[];
}

export interface SearchResponse {
	query: string;
	/** The FTS5 expression run (after any retry). */
	match?: string;
	results: SearchHit[];
	/** Sessions with at least one ranked match (before the limit). */
	totalSessions: number;
	/** Set when the query could not be run; results are then empty. */
	error?: string;
	/** Set when the query had to be simplified to run. */
	notice?: string;
	/** Set when the query matched so many entries that only its newest this-many matches were ranked. */
	rankedNewest?: number;
}

interface Candidate {
	id: number;
	session: number;
	entry_id: string;
	role: Role;
	type: string;
	ts: number | null;
	state: number;
	score: number;
}

/** Indexed words containing `fragment`, shortest first (the vocabulary's trigram index). */
export function vocabularyExpander(db: Database): Expander {
	return (fragment) => {
		if (fragment.length < 3) return [];
		try {
			// A detail=none trigram index answers LIKE from its doclists alone; fragments are letters and digits only.
			return queryAll<{ term: string }>(
				db,
				"SELECT term FROM (SELECT term FROM vocab_fts WHERE term LIKE ? LIMIT ?) ORDER BY length(term), term LIMIT ?",
				[`%${fragment}%`, DEFAULTS.substringScan, DEFAULTS.substringMaxExpansions],
			).map((r) => r.term);
		} catch {
			return [];
		}
	};
}

function flatWords(node: QueryNode): string[] {
	switch (node.kind) {
		case "word":
		case "phrase":
			return [node.text];
		case "not":
			return [];
		default:
			return node.items.flatMap(flatWords);
	}
}

/** Words of a question that say nothing about its subject. */
const QUESTION_WORDS = new Set(
	"a an and are about as at be by can could did do does for from had has have how i in is it its me my of on or our should so that the their them they this to us was we were what when where which who why will with would you your".split(" "),
);

/** A plain list of words typed as a question ("why did we pick sql.js"): its subject words ORed, or undefined. */
function anyWordQuery(root: QueryNode): QueryNode | undefined {
	if (root.kind !== "and" || root.items.length < 2) return undefined;
	if (!root.items.every((n) => n.kind === "word")) return undefined;
	const subject = root.items.filter((n) => n.kind === "word" && !QUESTION_WORDS.has(n.text.toLowerCase()));
	return { kind: "or", items: subject.length > 0 ? subject : root.items };
}

/** Run a search. Bad filters throw LookbackError("bad-argument"); a bad query gives `error` in the response. */
export function search(db: Database, request: SearchRequest): SearchResponse {
	const limit = Math.max(1, Math.min(request.limit ?? DEFAULTS.searchLimit, DEFAULTS.searchMaxLimit));
	const since = timeBound(request.since, "start", request.now);
	const until = timeBound(request.until, "end", request.now);
	const roles = request.role === undefined ? [] : Array.isArray(request.role) ? request.role : [request.role];
	const response: SearchResponse = { query: request.query, results: [], totalSessions: 0 };
	const parsed = parseQuery(request.query);
	if (!parsed.ok) return { ...response, error: parsed.error };

	const expander = vocabularyExpander(db);
	const filters: Filters = { since, until, roles, project: request.project, limit, exclude: request.exclude, topOnly: request.scope === "top", agent: request.agent };
	const attempts: Array<() => ReturnType<typeof compileQuery>> = [
		() => compileQuery(parsed.root, expander),
		() => compileQuery(parsed.root, expander, false),
		() => {
			const words = flatWords(parsed.root).flatMap((w) => wordsOf(w));
			return words.length > 0
				? compileQuery({ kind: "and", items: words.map((text) => ({ kind: "word", text, prefix: false })) }, expander, false)
				: { ok: false, error: "the query has no words to search for" };
		},
	];
	let lastError = "";
	for (const [i, attempt] of attempts.entries()) {
		const compiled = attempt();
		if (!compiled.ok) {
			if (i === 0) return { ...response, error: compiled.error }; // the retries are for SQL errors, not for empty queries
			lastError = compiled.error;
			continue;
		}
		try {
			const found = runQuery(db, compiled.query, filters);
			const relaxed = found.results.length === 0 ? anyWordQuery(parsed.root) : undefined;
			if (relaxed) {
				const loose = compileQuery(relaxed, expander, i === 0);
				if (loose.ok) {
					const more = runQuery(db, loose.query, filters);
					if (more.results.length > 0) return { ...response, ...more, match: loose.query.match, notice: "no session has every word; ranked by the words they have" };
				}
			}
			return { ...response, ...found, match: compiled.query.match, notice: i > 0 ? "the query was simplified to run" : undefined };
		} catch (error) {
			lastError = errorMessage(error);
		}
	}
	return { ...response, error: `cannot run this query: ${lastError}` };
}

interface Filters {
	since?: number;
	until?: number;
	roles: Role[];
	project?: string;
	limit: number;
	exclude?: SearchRequest["exclude"];
	topOnly: boolean;
	agent?: "pi" | "omp";
}

function runQuery(db: Database, query: CompiledQuery, f: Filters): Pick<SearchResponse, "results" | "totalSessions" | "rankedNewest"> {
	const roles = f.roles.filter((r) => ROLES.includes(r));
	const match = roles.length > 0 ? `{${roles.join(" ")}} : (${query.match})` : query.match;
	// Conditions on the joined entry and session; the FTS match itself runs in the ranked subquery below.
	const where: string[] = ["s.session_id IS NOT NULL"];
	const params: (string | number)[] = [];
	if (f.since !== undefined) {
		where.push("e.ts >= ?");
		params.push(f.since);
	}
	if (f.until !== undefined) {
		where.push("e.ts < ?");
		params.push(f.until);
	}
	if (f.topOnly) where.push("s.kind != 'subagent'");
	if (f.agent) {
		where.push("s.agent = ?");
		params.push(f.agent);
	}
	if (f.project) {
		where.push("(s.cwd LIKE ? ESCAPE '\\' OR s.name LIKE ? ESCAPE '\\')");
		params.push(containsPattern(f.project), containsPattern(f.project));
	}
	// Rank inside FTS5 first (its fast path), then join the ranked rows to their entries. A query with more
	// matches than the window is ranked among its newest matches; when filters leave too few sessions there,
	// the window widens (x8) until they do or every match is ranked.
	const columns = "e.id, e.session, e.entry_id, e.role, e.type, e.ts, e.state";
	let candidates: Candidate[] = [];
	let rankedNewest: number | undefined;
	for (let window = DEFAULTS.rankWindow; ; window *= 8) {
		const boundary = newestWindowStart(db, match, window);
		rankedNewest = boundary !== undefined ? window : undefined;
		const ranked = `SELECT rowid AS rid, rank AS score FROM entries_fts WHERE entries_fts MATCH ?${boundary !== undefined ? " AND rowid >= ?" : ""} ORDER BY rank`;
		candidates = queryAll<Candidate>(
			db,
			`SELECT ${columns}, c.score FROM (${ranked}) c CROSS JOIN entries e ON e.id = c.rid CROSS JOIN sessions s ON s.id = e.session WHERE ${where.join(" AND ")} ORDER BY c.score, e.id DESC`,
			boundary !== undefined ? [match, boundary, ...params] : [match, ...params],
		);
		const filtered = where.length > 1;
		if (boundary === undefined || !filtered || new Set(candidates.map((c) => c.session)).size >= f.limit) break;
	}
	if (candidates.length === 0) return { results: [], totalSessions: 0, rankedNewest };

	const sessionIds = [...new Set(candidates.map((c) => c.session))];
	const rows = new Map<number, SessionRow>();
	for (const row of queryAll<SessionRow>(db, `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id IN (${sessionIds.join(",")})`)) rows.set(row.id, row);
	const bySessionUuid = new Map<string, number>();
	for (const row of rows.values()) if (row.session_id) bySessionUuid.set(row.session_id, row.id);

	const best = new Map<number, Candidate>();
	const entryIds = new Map<number, Set<string>>();
	const counts = new Map<number, number>();
	for (const c of candidates) {
		const row = rows.get(c.session);
		if (f.exclude && row && f.exclude({ sessionPath: row.path, entryId: c.entry_id })) continue;
		if (!best.has(c.session)) best.set(c.session, c);
		counts.set(c.session, (counts.get(c.session) ?? 0) + 1);
		let ids = entryIds.get(c.session);
		if (!ids) entryIds.set(c.session, (ids = new Set()));
		ids.add(c.entry_id);
	}

	// Fold forks into their parent when both matched on the same (copied) entry.
	const order: number[] = [];
	const forksOf = new Map<number, { sessionId: string; path: string }[]>();
	for (const session of best.keys()) {
		const row = rows.get(session)!;
		const parent = row.parent_id ? bySessionUuid.get(row.parent_id) : undefined;
		const target = parent !== undefined && parent !== session && entryIds.get(parent)?.has(best.get(session)!.entry_id) ? parent : session;
		if (target !== session) {
			const list = forksOf.get(target) ?? [];
			list.push({ sessionId: row.session_id ?? "", path: row.path });
			forksOf.set(target, list);
		}
		if (!order.includes(target)) order.push(target);
	}
	const totalSessions = order.length;
	const chosen = order.slice(0, f.limit);

	const results = chosen.map((session) => {
		const hit = best.get(session)!;
		const body = decodeBody(queryAll<{ body: unknown }>(db, "SELECT body FROM entries WHERE id = ?", [hit.id])[0]?.body);
		const row = rows.get(session)!;
		const spawnedByEntryId = row.kind === "subagent" && row.spawned_by ? spawningEntry(db, row.spawned_by, agentNameOf(row.path)) : undefined;
		return {
			...sessionSummary(row),
			...(spawnedByEntryId ? { spawnedByEntryId } : {}),
			entryId: hit.entry_id,
			role: hit.role,
			type: hit.type,
			time: hit.ts !== null ? new Date(hit.ts).toISOString() : undefined,
			branchState: STATE_NAME[hit.state] ?? "active",
			snippet: makeSnippet(body, query.terms),
			hits: counts.get(session) ?? 1,
			score: hit.score,
			forks: forksOf.get(session) ?? [],
		} satisfies SearchHit;
	});
	return { results, totalSessions, rankedNewest };
}

/** For a query with more than `window` matches, the rowid of its window-th newest match. */
function newestWindowStart(db: Database, match: string, window: number): number | undefined {
	const row = queryAll<{ id: number }>(db, "SELECT rowid AS id FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?", [
		match,
		window,
	])[0];
	return row?.id;
}
