/**
 * Every place one session matches a query, in the session's order: for going straight to what matters in a
 * session already found, instead of paging through it. The same query language, word forms, deep words and typo
 * corrections as a search, over every branch (each match says its branch state), paged.
 */

import { DEFAULTS } from "../defaults.js";
import type { Role } from "../parse/entry-text.js";
import { compileQuery } from "../query/compile.js";
import { parseQuery } from "../query/parser.js";
import { searchVocabulary } from "../query/vocabulary.js";
import type { SessionRow } from "../read/session-rows.js";
import { decodeBody } from "../store/body-codec.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { STATE_NAME } from "../store/schema.js";
import { isoOf } from "../text/time.js";
import { type Candidate, storedEntry } from "./run.js";
import { correct, type ReadRange, type SearchHit } from "./search.js";
import { snippetOf } from "./shape.js";

export interface InSessionRequest {
	query: string;
	/** Matches to skip (paging: the `next` of a previous reply). */
	offset?: number;
	/** Matches to return (default `DEFAULTS.inSessionLimit`, at most `DEFAULTS.inSessionMaxLimit`). */
	limit?: number;
	/** Only text of these roles. */
	role?: Role | Role[];
	readRange?: ReadRange;
}

/** A matching entry: the entry fields of a search hit, without the session's (the reply names it once). */
export type InSessionMatch = Pick<SearchHit, "entryId" | "role" | "type" | "time" | "branchState" | "snippet" | "inMiddle">;

export interface InSessionResponse {
	query: string;
	correctedQuery?: string;
	notice?: string;
	/** Matching entries in the whole session. */
	total: number;
	offset: number;
	matches: InSessionMatch[];
	/** The offset of the next page, when there is one. */
	next?: number;
	error?: string;
}

/** A matching entry of the session; `held`: for a copy of a message another session holds, that row (its text). */
type Row = Candidate & { seq: number; held?: number };

/** Every matching entry of one session (`row`), in file order, one page of them. */
export function searchInSession(db: Database, row: SessionRow, request: InSessionRequest): InSessionResponse {
	const offset = Math.max(0, request.offset ?? 0);
	const limit = Math.max(1, Math.min(request.limit ?? DEFAULTS.inSessionLimit, DEFAULTS.inSessionMaxLimit));
	const response: InSessionResponse = { query: request.query, total: 0, offset, matches: [] };
	const parsed = parseQuery(request.query);
	if (!parsed.ok) return { ...response, error: parsed.error };
	const vocab = searchVocabulary(db);
	const { root, corrected } = correct(db, request.query, parsed.root, vocab);
	const how = { forms: vocab.forms, prefixes: vocab.prefixed };
	const positions = compileQuery(root, vocab.expand, how);
	const deep = compileQuery(root, vocab.expand, { ...how, positions: false });
	if (!positions.ok) return { ...response, error: positions.error };
	// A session's entries sit in a few runs of rowids: FTS5 takes the range, the session filter the rest.
	const [range] = queryAll<{ lo: number; hi: number }>(db, "SELECT min(id) AS lo, max(id) AS hi FROM entries WHERE session = ?", [row.id]);
	if (!range || range.lo === null) return { ...response, ...corrected };
	const roles = request.role === undefined ? [] : Array.isArray(request.role) ? request.role : [request.role];
	const byRole = roles.length > 0 ? ` AND e.role IN (${roles.map(() => "?").join(",")})` : "";
	const select = (table: "entries_fts" | "entries_deep", match: string) =>
		queryAll<Row>(
			db,
			`SELECT e.id, e.session, e.entry_id, e.role, e.type, e.ts, e.state, e.seq, 0 AS score
			 FROM ${table} f CROSS JOIN entries e ON e.id = f.rowid
			 WHERE ${table} MATCH ? AND f.rowid BETWEEN ? AND ? AND e.session = ?${byRole}`,
			[match, range.lo, range.hi, row.id, ...roles],
		).map((r) => ({ ...r, table }));
	// The session's copies of messages other sessions hold (sync/copies.ts) match through the holders' rows.
	const [held] = queryAll<{ lo: number | null; hi: number | null }>(
		db,
		`SELECT min(h.id) AS lo, max(h.id) AS hi FROM entries c CROSS JOIN entries h ON h.ukey = c.ukey AND h.entry_id = c.entry_id AND h.body IS NOT NULL
		 WHERE c.session = ? AND c.ukey IS NOT NULL AND c.body IS NULL`,
		[row.id],
	);
	const selectCopies = (table: "entries_fts" | "entries_deep", match: string) =>
		held?.lo === null || held?.lo === undefined
			? []
			: queryAll<Row>(
					db,
					`SELECT e.id, e.session, e.entry_id, e.role, e.type, e.ts, e.state, e.seq, h.id AS held, 0 AS score
					 FROM ${table} f CROSS JOIN entries h ON h.id = f.rowid CROSS JOIN entries e ON e.ukey = h.ukey AND e.entry_id = h.entry_id
					 WHERE ${table} MATCH ? AND f.rowid BETWEEN ? AND ? AND e.session = ? AND e.body IS NULL${byRole}`,
					[match, held.lo, held.hi, row.id, ...roles],
				).map((r) => ({ ...r, table }));
	const found = new Map<number, Row & { table: "entries_fts" | "entries_deep" }>();
	for (const r of [...select("entries_fts", positions.query.match), ...selectCopies("entries_fts", positions.query.match)])
		found.set(r.id, r);
	// Words in the cut middle of a long entry, where the stored text has no match.
	if (deep.ok)
		for (const r of [...select("entries_deep", deep.query.match), ...selectCopies("entries_deep", deep.query.match)])
			if (!found.has(r.id)) found.set(r.id, r);
	const all = [...found.values()].sort((a, b) => a.seq - b.seq);
	const page = all.slice(offset, offset + limit);
	const matches = page.map((hit) => {
		const stored = storedEntry(db, hit.id);
		const body = hit.held === undefined || hit.held === null ? stored.body : storedEntry(db, hit.held).body;
		return {
			entryId: hit.entry_id,
			role: hit.role,
			type: hit.type,
			...(hit.ts !== null ? { time: isoOf(hit.ts) } : {}),
			branchState: STATE_NAME[hit.state] ?? "active",
			...snippetOf(decodeBody(body), stored, row, positions.query.terms, hit.table, request.readRange),
		};
	});
	return {
		...response,
		...corrected,
		total: all.length,
		matches,
		...(offset + limit < all.length ? { next: offset + limit } : {}),
	};
}
