/**
 * Discovery: a query and filters → sessions ranked by their best matching entry (BM25 with role weights),
 * each with its hit count and a marked snippet. A fork that matched on the same entry as its parent
 * collapses into the parent. User text never surfaces as an SQL error. When the query as typed leaves
 * sessions missing, tiers add them after: other word forms, then the whole text of cut entries; a word
 * matching nothing is corrected to its closest vocabulary word; a question no entry has every word of is
 * ranked by the words it has (word-ranking.ts).
 */

import { decodeBody } from "./body-codec.js";
import type { BranchState } from "./branch.js";
import { DEFAULTS } from "./defaults.js";
import type { Database } from "./engine.js";
import { queryAll } from "./engine.js";
import { errorMessage } from "./errors.js";
import { hasCjk, splitCjk } from "./cjk.js";
import { ROLES, type Role, wholeTextOfLine } from "./entry-text.js";
import { containsPattern } from "./project.js";
import { compileQuery, type CompileOptions, type CompiledQuery, type Expander } from "./query-compile.js";
import { parseQuery, type QueryNode } from "./query-parser.js";
import { type SessionRow, sessionSummary, type SessionSummary, SESSION_COLUMNS } from "./session-rows.js";
import { STATE_NAME } from "./schema.js";
import { spawningEntryOf } from "./sessions.js";
import { makeSnippet } from "./snippet.js";
import { timeBound } from "./time.js";
import { closestWords, inVocabulary, vocabularyExpander, wordForms } from "./vocabulary.js";
import { rankByWords, sessionWeight, type WeightedWord, type WordRanked } from "./word-ranking.js";
import { isVocabularyWord, wordsOf } from "./words.js";

/** Bytes [start, end) of a session file, read synchronously; undefined when the file cannot be read. */
export type ReadRange = (path: string, start: number, end: number) => Uint8Array | undefined;

/** The FTS5 tables a query runs on: positions for the stored text, words only for the whole text of cut entries. */
type Table = "entries_fts" | "entries_deep";

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
	/** Only entries in these branch states (active, compacted, abandoned). */
	branch?: BranchState | BranchState[];
	/** Clock for relative times (tests). */
	now?: number;
	/** Entries never to return, e.g. what the asking agent already has in context: session rowid → entry ids. */
	exclude?: (hit: { sessionPath: string; entryId: string }) => boolean;
	/** Reads session files, to cut a snippet around a match in the unstored middle of a long entry (absent: none is read). */
	readRange?: ReadRange;
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
	/** The match is in the middle of a long entry that is not stored: the snippet was read from the session file, or the file could not be read. */
	inMiddle?: "read from the session file" | "unstored";
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
	/** Set when the query had to be simplified or corrected to run, or results came from a fallback. */
	notice?: string;
	/** The query run instead when a word of it matched nothing and was corrected (`query` keeps what was typed). */
	correctedQuery?: string;
	/** What was needed beyond the query as typed: typo, word-forms, deep (cut middles), words, cjk-pairs. */
	fallbacks?: string[];
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
	off: number | null;
	len: number | null;
	score: number;
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

/** The subject words of a plain list of words (a question), or undefined when the query has operators, phrases or prefixes. */
function subjectWords(root: QueryNode): string[] | undefined {
	const items = root.kind === "and" ? root.items : [root];
	if (!items.every((n) => n.kind === "word" && !n.prefix)) return undefined;
	const words = items.map((n) => (n as { text: string }).text);
	const subject = words.filter((w) => !QUESTION_WORDS.has(w.toLowerCase()));
	return subject.length > 0 ? subject : words;
}

/** A plain list of words with question words among its subject words: the subject words alone, ANDed. */
function subjectOnly(root: QueryNode): QueryNode | undefined {
	const subject = subjectWords(root);
	if (!subject || root.kind !== "and" || subject.length === root.items.length) return undefined;
	return subject.length === 1 ? { kind: "word", text: subject[0], prefix: false } : { kind: "and", items: subject.map((text) => ({ kind: "word", text, prefix: false })) };
}

/** Replace words of the query tree (typo corrections). */
function replaceWords(node: QueryNode, fixes: Map<string, string>): QueryNode {
	switch (node.kind) {
		case "word":
			return fixes.has(node.text) ? { ...node, text: fixes.get(node.text)! } : node;
		case "phrase":
			return node;
		case "not":
			return { kind: "not", item: replaceWords(node.item, fixes) };
		default:
			return { kind: node.kind, items: node.items.map((n) => replaceWords(n, fixes)) };
	}
}

function positiveWords(node: QueryNode): { text: string; prefix: boolean }[] {
	switch (node.kind) {
		case "word":
			return [node];
		case "phrase":
		case "not":
			return [];
		default:
			return node.items.flatMap(positiveWords);
	}
}

/**
 * Closest vocabulary words for the query words that match nothing at all (not as typed, not inside a longer
 * word, not as another form): typed word → correction. Quoted words, prefixes, CJK and short words are kept.
 */
function typoFixes(db: Database, root: QueryNode, vocab: Vocab): Map<string, string> {
	const fixes = new Map<string, string>();
	let checked = 0;
	for (const w of positiveWords(root)) {
		if (w.prefix || hasCjk(w.text) || fixes.has(w.text)) continue;
		const words = wordsOf(w.text);
		if (words.length !== 1 || !isVocabularyWord(words[0]) || checked++ >= DEFAULTS.typoMaxWords) continue;
		const word = words[0];
		if (inVocabulary(db, word) || vocab.expand(word).length > 0 || vocab.forms(word).length > 0) continue;
		const best = closestWords(db, word, 1)[0];
		if (best) fixes.set(w.text, best);
	}
	return fixes;
}

interface Vocab {
	expand: Expander;
	forms: Expander;
}

type Found = Pick<SearchResponse, "results" | "totalSessions" | "rankedNewest">;

/** Sessions of `more` not already in `found`, after them. */
function merge(found: Found, more: Found, limit: number): { found: Found; added: number } {
	const seen = new Set(found.results.map((r) => r.path));
	const add = more.results.filter((r) => !seen.has(r.path));
	const results = [...found.results, ...add].slice(0, limit);
	return { found: { results, totalSessions: found.totalSessions + add.length, rankedNewest: found.rankedNewest ?? more.rankedNewest }, added: add.length };
}

/** Run a search. Bad filters throw LookbackError("bad-argument"); a bad query gives `error` in the response. */
export function search(db: Database, request: SearchRequest): SearchResponse {
	const limit = Math.max(1, Math.min(request.limit ?? DEFAULTS.searchLimit, DEFAULTS.searchMaxLimit));
	const since = timeBound(request.since, "start", request.now);
	const until = timeBound(request.until, "end", request.now);
	const roles = request.role === undefined ? [] : Array.isArray(request.role) ? request.role : [request.role];
	const states = request.branch === undefined ? [] : Array.isArray(request.branch) ? request.branch : [request.branch];
	const response: SearchResponse = { query: request.query, results: [], totalSessions: 0 };
	const parsed = parseQuery(request.query);
	if (!parsed.ok) return { ...response, error: parsed.error };

	const vocab: Vocab = { expand: vocabularyExpander(db), forms: wordForms(db) };
	const filters: Filters = { since, until, roles, project: request.project, limit, exclude: request.exclude, topOnly: request.scope === "top", agent: request.agent, states, readRange: request.readRange };
	let root = parsed.root;
	let corrected: Pick<SearchResponse, "correctedQuery" | "notice"> = {};
	const fixes = typoFixes(db, root, vocab);
	if (fixes.size > 0) {
		root = replaceWords(root, fixes);
		let text = request.query;
		for (const [from, to] of fixes) text = text.replace(from, to);
		const typed = [...fixes.keys()].map((w) => `"${w}"`).join(", ");
		corrected = { correctedQuery: text, notice: `showing results for "${text}": nothing has ${typed} (search "${[...fixes.keys()][0]}" in quotes to keep it)` };
	}
	const fallbacks: string[] = fixes.size > 0 ? ["typo"] : [];
	const attempts: Array<() => Tiers> = [
		() => tiers(db, root, vocab, filters, {}),
		() => tiers(db, root, vocab, filters, { substrings: false }),
		() => {
			const words = flatWords(root).flatMap((w) => wordsOf(w));
			return tiers(db, { kind: "and", items: words.map((text) => ({ kind: "word", text, prefix: false })) }, vocab, filters, { substrings: false });
		},
	];
	let lastError = "";
	for (const [i, attempt] of attempts.entries()) {
		try {
			const t = attempt();
			if ("error" in t) {
				if (i === 0) return { ...response, error: t.error }; // the retries are for SQL errors, not for empty queries
				lastError = t.error;
				continue;
			}
			fallbacks.push(...t.fallbacks);
			const subject = t.found.results.length === 0 ? subjectOnly(root) : undefined;
			if (subject) {
				// Every subject word, the question words left out ("why did we pick sql.js" → "pick sql.js").
				const s = tiers(db, subject, vocab, filters, i === 0 ? {} : { substrings: false });
				if (!("error" in s) && s.found.results.length > 0) {
					const notice = [corrected.notice, "no session has every word; these have every word but the question words"].filter(Boolean).join("; ");
					return { ...response, ...s.found, match: s.match, ...corrected, notice, fallbacks: [...fallbacks, ...s.fallbacks, "subject-words"] };
				}
			}
			if (t.found.results.length === 0) {
				const loose = byMostWords(db, root, vocab, filters);
				if (loose) return { ...response, ...loose.found, match: loose.match, notice: [corrected.notice, loose.notice].filter(Boolean).join("; "), ...(corrected.correctedQuery ? { correctedQuery: corrected.correctedQuery } : {}), fallbacks: [...fallbacks, loose.fallback] };
			}
			const notice = [corrected.notice, i > 0 ? "the query was simplified to run" : undefined].filter(Boolean).join("; ") || undefined;
			return { ...response, ...t.found, match: t.match, ...corrected, notice, ...(fallbacks.length > 0 ? { fallbacks } : {}) };
		} catch (error) {
			lastError = errorMessage(error);
		}
	}
	return { ...response, error: `cannot run this query: ${lastError}` };
}

type Tiers = { found: Found; match: string; fallbacks: string[] } | { error: string };

/**
 * The query as typed (with substrings) first; while sessions are missing, its other word forms, then the
 * whole text of cut entries (words without positions). Each tier only adds sessions after those found.
 */
function tiers(db: Database, root: QueryNode, vocab: Vocab, f: Filters, options: CompileOptions): Tiers {
	const exact = compileQuery(root, vocab.expand, options);
	if (!exact.ok) return { error: exact.error };
	let found = runQuery(db, exact.query, f, "entries_fts");
	const fallbacks: string[] = [];
	// A query matching more entries than the rank window is common enough: the sessions missing are older, not elsewhere.
	if (found.results.length >= f.limit || found.rankedNewest !== undefined) return { found, match: exact.query.match, fallbacks };
	const forms = compileQuery(root, vocab.expand, { ...options, forms: vocab.forms });
	if (forms.ok && forms.query.match !== exact.query.match) {
		const more = merge(found, runQuery(db, forms.query, f, "entries_fts"), f.limit);
		found = more.found;
		if (more.added > 0) fallbacks.push("word-forms");
	}
	if (found.results.length >= f.limit) return { found, match: exact.query.match, fallbacks };
	const deep = compileQuery(root, vocab.expand, { ...options, forms: vocab.forms, positions: false });
	if (deep.ok) {
		const more = merge(found, runQuery(db, deep.query, f, "entries_deep"), f.limit);
		found = more.found;
		if (more.added > 0) fallbacks.push("deep");
	}
	return { found, match: exact.query.match, fallbacks };
}

/** One CJK run of 3+ characters: its overlapping pairs, each weighed alone. */
function cjkPairs(run: string): string[] {
	const cs = Array.from(run);
	const pairs: string[] = [];
	for (let i = 0; i + 1 < cs.length; i++) pairs.push(cs[i] + cs[i + 1]);
	return [...new Set(pairs)];
}

/** The fallback of a question no entry has every word of: entries ranked by the words (and CJK pairs) they have. */
function byMostWords(db: Database, root: QueryNode, vocab: Vocab, f: Filters): { found: Found; match: string; notice: string; fallback: string } | undefined {
	const subject = subjectWords(root);
	if (!subject) return undefined;
	const units: string[] = [];
	let pairs = false;
	for (const word of subject) {
		for (const piece of splitCjk(word)) {
			if (!piece.cjk) units.push(piece.text);
			else if (Array.from(piece.text).length >= 3) {
				units.push(...cjkPairs(piece.text));
				pairs = true;
			} else units.push(piece.text);
		}
	}
	if (units.length < 2) return undefined;
	const words: WeightedWord[] = [];
	const terms = new Set<string>();
	const matches: string[] = [];
	for (const unit of [...new Set(units)]) {
		const node: QueryNode = { kind: "word", text: unit, prefix: false };
		const head = compileQuery(node, vocab.expand, { forms: vocab.forms });
		const deep = compileQuery(node, vocab.expand, { forms: vocab.forms, positions: false });
		if (!head.ok || !deep.ok) continue;
		words.push({ match: head.query.match, deepMatch: deep.query.match });
		for (const t of head.query.terms) terms.add(t);
		matches.push(head.query.match);
	}
	const ranked = rankByWords(db, words);
	const found = shapeResults(db, wordCandidates(db, ranked, f), { match: matches.join(" OR "), terms: [...terms] }, f, "entries_deep");
	if (found.results.length === 0) return undefined;
	return pairs
		? { found, match: matches.join(" OR "), notice: "no entry has the Chinese or Japanese text as written; ranked by how many of its character pairs they have", fallback: "cjk-pairs" }
		: { found, match: matches.join(" OR "), notice: "no session has every word; ranked by the words they have, rare words weighing most", fallback: "words" };
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
	states: BranchState[];
	readRange?: ReadRange;
}

/** Conditions on the joined entry (e) and session (s) for the filters. */
function filterClauses(f: Filters, table: Table): { where: string[]; params: (string | number)[] } {
	const where: string[] = ["s.session_id IS NOT NULL"];
	const params: (string | number)[] = [];
	const roles = f.roles.filter((r) => ROLES.includes(r));
	// The deep table has one column: roles are the entry's.
	if (table !== "entries_fts" && roles.length > 0) where.push(`e.role IN (${roles.map((r) => `'${r}'`).join(",")})`);
	if (f.since !== undefined) {
		where.push("e.ts >= ?");
		params.push(f.since);
	}
	if (f.until !== undefined) {
		where.push("e.ts < ?");
		params.push(f.until);
	}
	if (f.topOnly) where.push("s.kind != 'subagent'");
	const states = f.states.map((name) => STATE_NAME.indexOf(name)).filter((code) => code >= 0);
	if (states.length > 0) where.push(`e.state IN (${states.join(",")})`);
	if (f.agent) {
		where.push("s.agent = ?");
		params.push(f.agent);
	}
	if (f.project) {
		where.push("(s.cwd LIKE ? ESCAPE '\\' OR s.name LIKE ? ESCAPE '\\')");
		params.push(containsPattern(f.project), containsPattern(f.project));
	}
	return { where, params };
}

const CANDIDATE_COLUMNS = "e.id, e.session, e.entry_id, e.role, e.type, e.ts, e.state, e.off, e.len";

function runQuery(db: Database, query: CompiledQuery, f: Filters, table: Table): Found {
	const roles = f.roles.filter((r) => ROLES.includes(r));
	const match = roles.length > 0 && table === "entries_fts" ? `{${roles.join(" ")}} : (${query.match})` : query.match;
	const { where, params } = filterClauses(f, table);
	// Rank inside FTS5 first (its fast path), then join the ranked rows to their entries. A query with more
	// matches than the window is ranked among its newest matches; when filters leave too few sessions there,
	// the window widens (x8) until they do or every match is ranked.
	let candidates: Candidate[] = [];
	let rankedNewest: number | undefined;
	for (let window = DEFAULTS.rankWindow; ; window *= 8) {
		const boundary = newestWindowStart(db, table, match, window);
		rankedNewest = boundary !== undefined ? window : undefined;
		const ranked = `SELECT rowid AS rid, rank AS score FROM ${table} WHERE ${table} MATCH ?${boundary !== undefined ? " AND rowid >= ?" : ""} ORDER BY rank`;
		candidates = queryAll<Candidate>(
			db,
			`SELECT ${CANDIDATE_COLUMNS}, c.score FROM (${ranked}) c CROSS JOIN entries e ON e.id = c.rid CROSS JOIN sessions s ON s.id = e.session WHERE ${where.join(" AND ")} ORDER BY c.score, e.id DESC`,
			boundary !== undefined ? [match, boundary, ...params] : [match, ...params],
		);
		const filtered = where.length > 1;
		if (boundary === undefined || !filtered || new Set(candidates.map((c) => c.session)).size >= f.limit) break;
	}
	return { ...shapeResults(db, candidates, query, f, table), rankedNewest };
}

/** Entries ranked by their words, filtered, ordered by their session's weight then their own; score is minus the session's weight. */
function wordCandidates(db: Database, ranked: WordRanked[], f: Filters): Candidate[] {
	if (ranked.length === 0) return [];
	const weight = new Map(ranked.map((r) => [r.id, r.weight]));
	const { where, params } = filterClauses(f, "entries_deep");
	const rows = queryAll<Candidate>(
		db,
		`SELECT ${CANDIDATE_COLUMNS}, 0 AS score FROM entries e CROSS JOIN sessions s ON s.id = e.session WHERE e.id IN (${ranked.map((r) => r.id).join(",")}) AND ${where.join(" AND ")}`,
		params,
	);
	const bySession = new Map<number, Candidate[]>();
	for (const row of rows.sort((a, b) => weight.get(b.id)! - weight.get(a.id)! || b.id - a.id)) {
		const list = bySession.get(row.session) ?? [];
		list.push(row);
		bySession.set(row.session, list);
	}
	const sessions = [...bySession.values()].map((list) => ({ list, weight: sessionWeight(list.map((c) => weight.get(c.id)!)) }));
	sessions.sort((a, b) => b.weight - a.weight || b.list[0].id - a.list[0].id);
	return sessions.flatMap(({ list, weight: w }) => list.map((c) => ({ ...c, score: -w })));
}

/** Candidates (best first) → one result per session, forks folded into their parent, with snippets. */
function shapeResults(db: Database, candidates: Candidate[], query: CompiledQuery, f: Filters, table: Table): Omit<Found, "rankedNewest"> {
	if (candidates.length === 0) return { results: [], totalSessions: 0 };

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
		const spawnedByEntryId = spawningEntryOf(db, row);
		return {
			...sessionSummary(row),
			...(spawnedByEntryId ? { spawnedByEntryId } : {}),
			entryId: hit.entry_id,
			role: hit.role,
			type: hit.type,
			time: hit.ts !== null ? new Date(hit.ts).toISOString() : undefined,
			branchState: STATE_NAME[hit.state] ?? "active",
			...snippetOf(body, hit, row.path, query.terms, table, f.readRange),
			hits: counts.get(session) ?? 1,
			score: hit.score,
			forks: forksOf.get(session) ?? [],
		} satisfies SearchHit;
	});
	return { results, totalSessions };
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
 * The snippet of a hit: from the stored text when it holds a match; for a match in the cut middle of an
 * entry, from the entry's line in its session file, or the stored text marked as such when the file cannot be read.
 */
function snippetOf(body: string, hit: Candidate, path: string, terms: string[], table: Table, readRange?: ReadRange): Pick<SearchHit, "snippet" | "inMiddle"> {
	const stored = makeSnippet(body, terms);
	if (table === "entries_fts" || stored.includes(DEFAULTS.markOpen)) return { snippet: stored };
	const line = hit.off !== null && hit.len !== null ? readLine(readRange, path, hit.off, hit.len) : undefined;
	const whole = line ? wholeTextOfLine(line) : undefined;
	const fromFile = whole ? makeSnippet(whole, terms) : undefined;
	if (fromFile?.includes(DEFAULTS.markOpen)) return { snippet: fromFile, inMiddle: "read from the session file" };
	return { snippet: `[match in the unstored middle] ${stored}`, inMiddle: "unstored" };
}

function readLine(readRange: ReadRange | undefined, path: string, off: number, len: number): Uint8Array | undefined {
	try {
		return readRange?.(path, off, off + len);
	} catch {
		return undefined;
	}
}
