/**
 * Discovery: a query and filters → sessions ranked by their best matching entry (BM25 with role weights),
 * each with its hit count and a marked snippet. A fork that matched on the same entry as its parent
 * collapses into the parent. User text never surfaces as an SQL error: a query that fails to run is retried
 * in simpler forms. When the query as typed leaves sessions missing, tiers add them after (tiers.ts);
 * a word matching nothing is corrected to its closest vocabulary word; a question no entry has every word of
 * is ranked by its subject words, then by the words it has (word-ranking.ts).
 */

import { DEFAULTS } from "../defaults.js";
import { errorMessage } from "../errors.js";
import type { BranchState } from "../parse/branch.js";
import type { Role } from "../parse/entry-text.js";
import type { CompileOptions } from "../query/compile.js";
import { parseQuery, type QueryNode, type Reading } from "../query/parser.js";
import { plainWords, replaceWords, subjectOnly, typoFixes } from "../query/rewrite.js";
import { filterSql, type SessionFilter } from "../query/session-filter.js";
import { searchVocabulary, type Vocab } from "../query/vocabulary.js";
import type { SessionSummary } from "../read/session-rows.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { SHARED_TEXT_KEY } from "../store/schema.js";
import { entriesFrom, type SearchPlan } from "./run.js";
import { byMostWords, merge, type Tiers, tiers } from "./tiers.js";
import { fusedSearch, phrasingsOf } from "./variants.js";
import { type WhyEmpty, whyEmpty } from "./why-empty.js";

/** Bytes [start, end) of a session file, read synchronously; undefined when the file cannot be read. */
export type ReadRange = (path: string, start: number, end: number) => Uint8Array | undefined;

export interface SearchRequest extends SessionFilter {
	query: string;
	/** Up to three other phrasings or translations of the query, searched with it and fused into one ranking. */
	variants?: string[];
	/** Only text of these roles. */
	role?: Role | Role[];
	/** Only entries in these branch states (active, compacted, abandoned). */
	branch?: BranchState | BranchState[];
	/** Sessions to return (default `DEFAULTS.searchLimit`, at most `DEFAULTS.searchMaxLimit`). */
	limit?: number;
	/** Entries never to return, e.g. what the asking agent already has in context: true for an entry to leave out. */
	exclude?: (hit: { sessionPath: string; entryId: string }) => boolean;
	/** Reads session files, to cut a snippet around a match in the unstored middle of a long entry (absent: none is read). */
	readRange?: ReadRange;
	/** Matches ranked before a very common query is ranked among its newest ones only (default `DEFAULTS.rankWindow`). */
	rankWindow?: number;
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
	branchState: BranchState;
	snippet: string;
	/** The match is in the middle of a long entry that is not stored: the snippet was read from the session file, or the file could not be read. */
	inMiddle?: "read from the session file" | "unstored";
	/** Matching entries in this session (among the newest `rankedNewest` matches when the response says so). */
	hits: number;
	/** BM25 score of the best entry (lower is better, as FTS5 reports it). */
	score: number;
	/** With query variants: the phrasings that found this session (the query first when it did). */
	foundBy?: string[];
	/** Forks that matched on the same entry and were folded into this result. */
	forks: { sessionId: string; path: string }[];
}

export interface SearchResponse {
	query: string;
	/** The other phrasings searched with the query (their results fused with its own). */
	variants?: string[];
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
	/**
	 * How the query was read (README, "Queries"): `keywords` with their syntax, a `question`'s words (only quotes
	 * count, the words around it left out), or its plain `words` when the keyword reading found nothing and they did.
	 */
	reading?: Reading | "words";
	/** The words around a question that were left out (`can you find`, `not sure when it was`). */
	wordsLeftOut?: string[];
	/** When nothing was found: which filter hid how many sessions that match, which words no session has, what to try. */
	why?: WhyEmpty;
}

/** How a query is run; a later form is tried only when the one before fails with an SQL error. */
interface Attempt {
	root: QueryNode;
	options: CompileOptions;
	/** A simpler form than typed (the reply says the query was simplified). */
	simplified: boolean;
}

/** The query as typed; without substring expansions; its plain words ANDed, operators and phrases dropped. */
function attempts(root: QueryNode): Attempt[] {
	return [
		{ root, options: {}, simplified: false },
		{ root, options: { substrings: false }, simplified: true },
		{ root: plainWords(root), options: { substrings: false }, simplified: true },
	];
}

/** A typo correction: the query run instead, and the notice that says so. */
export type Correction = Pick<SearchResponse, "correctedQuery" | "notice">;

/** `asWords`: the tree is the query's plain words (its quotes and operators set aside), the corrected text theirs. */
export function correct(
	db: Database,
	query: string,
	root: QueryNode,
	vocab: Vocab,
	asWords = false,
): { root: QueryNode; corrected: Correction } {
	const fixes = typoFixes(db, root, vocab);
	if (fixes.size === 0) return { root, corrected: {} };
	let text = asWords ? treeWords(root).join(" ") : query;
	for (const [from, to] of fixes) text = text.replace(from, to);
	const typed = [...fixes.keys()].map((w) => `"${w}"`).join(", ");
	const keep = asWords ? "" : ` (search "${[...fixes.keys()][0]}" in quotes to keep it)`;
	return {
		root: replaceWords(root, fixes),
		corrected: { correctedQuery: text, notice: `showing results for "${text}": nothing has ${typed}${keep}` },
	};
}

/** The words and phrases of a tree, as typed. */
function treeWords(node: QueryNode): string[] {
	return node.kind === "word" || node.kind === "phrase"
		? [node.text]
		: node.kind === "not"
			? treeWords(node.item)
			: node.items.flatMap(treeWords);
}

function joined(...notices: (string | undefined)[]): string {
	return notices.filter(Boolean).join("; ");
}

/** Run a search. Bad filters throw LookbackError("bad-argument"); a bad query gives `error` in the response; an empty one says why. */
export function search(db: Database, request: SearchRequest): SearchResponse {
	const run = (r: SearchRequest) => (phrasingsOf(r).length > 1 ? fusedSearch(db, r, searchOne) : searchOne(db, r));
	const response = run(request);
	const why = whyEmpty(db, request, response, run);
	return why ? { ...response, why } : response;
}

function searchOne(db: Database, request: SearchRequest): SearchResponse {
	const plan: SearchPlan = {
		filter: filterSql(request, { time: "entry", sessions: "s", entries: "e", defaultScope: DEFAULTS.searchScope }),
		roles: request.role === undefined ? [] : Array.isArray(request.role) ? request.role : [request.role],
		states: request.branch === undefined ? [] : Array.isArray(request.branch) ? request.branch : [request.branch],
		limit: Math.max(1, Math.min(request.limit ?? DEFAULTS.searchLimit, DEFAULTS.searchMaxLimit)),
		rankWindow: request.rankWindow ?? DEFAULTS.rankWindow,
		exclude: request.exclude,
		readRange: request.readRange,
		entries: entriesFrom(db),
		shared: queryAll(db, "SELECT 1 FROM meta WHERE key = ?", [SHARED_TEXT_KEY]).length > 0,
	};
	const response: SearchResponse = { query: request.query, results: [], totalSessions: 0 };
	const parsed = parseQuery(request.query);
	if (!parsed.ok) return { ...response, error: parsed.error };
	const vocab = searchVocabulary(db);
	const read = { reading: parsed.reading, ...(parsed.leftOut ? { wordsLeftOut: parsed.leftOut } : {}) };
	const question = parsed.reading === "question";
	const found = { ...response, ...searchTree(db, request.query, parsed.root, vocab, plan, { question, asWords: false }), ...read };
	// A reading that finds nothing never wins over the plain words of the query when they find something.
	if (found.results.length > 0 || found.error || !parsed.words) return found;
	const words = searchTree(db, request.query, parsed.words, vocab, plan, { question, asWords: true });
	if (words.error || !words.results?.length) return found;
	const notice = joined(
		`read as plain words: the query's ${parsed.reading === "question" ? "quotes" : "operators"} matched nothing`,
		words.notice,
	);
	return { ...response, ...words, ...read, reading: "words", notice };
}

/** One reading of the query searched: its attempts, tiers and fallbacks. */
function searchTree(
	db: Database,
	query: string,
	tree: QueryNode,
	vocab: Vocab,
	plan: SearchPlan,
	{ question, asWords }: { question: boolean; asWords: boolean },
): Partial<SearchResponse> {
	const { root, corrected } = correct(db, query, tree, vocab, asWords);
	const run: Run = { db, root, vocab, plan, corrected, question };
	let lastError = "";
	for (const attempt of attempts(root)) {
		try {
			// A question's other tiers are its subject words' (answer): they find whatever these would, and more.
			const t = tiers(db, attempt.root, vocab, plan, attempt.options, subjectOnly(attempt.root) ? "as typed" : "all");
			if ("error" in t) {
				if (!attempt.simplified) return { error: t.error }; // the retries are for SQL errors, not for empty queries
				lastError = t.error;
				continue;
			}
			return answer(run, t, attempt);
		} catch (error) {
			lastError = errorMessage(error);
		}
	}
	return { error: `cannot run this query: ${lastError}` };
}

/** What one search works with: the query after typo corrections, its vocabulary and its plan. */
interface Run {
	db: Database;
	root: QueryNode;
	vocab: Vocab;
	plan: SearchPlan;
	corrected: Correction;
	/** The query reads as a question (parser.ts). */
	question: boolean;
}

/**
 * What the tiers found; when sessions are missing, the subject words of a question; when no session was found by
 * its own words (nothing, or only in boilerplate many sessions share), the most of its words, before that boilerplate.
 */
function answer(
	{ db, root, vocab, plan, corrected, question }: Run,
	t: Exclude<Tiers, { error: string }>,
	attempt: Attempt,
): Partial<SearchResponse> {
	const fallbacks = [...(corrected.correctedQuery ? ["typo"] : []), ...t.fallbacks];
	let found = t.found;
	let match = t.match;
	let said: string | undefined;
	const shared = new Set(t.shared);
	const subject = found.results.length < plan.limit && found.rankedNewest === undefined ? subjectOnly(root) : undefined;
	if (subject) {
		// Every subject word, the question words left out ("why did we pick sql.js" → "pick sql.js"), after the
		// sessions that have every word as typed: with their forms and in cut middles too.
		const s = tiers(db, subject, vocab, plan, attempt.options);
		if (!("error" in s) && s.found.results.length > 0) {
			for (const path of s.shared) shared.add(path);
			if (found.results.length === 0) {
				({ found, match } = s);
				said = "no session has every word; these have every word but the question words";
				fallbacks.push(...s.fallbacks, "subject-words");
			} else {
				const more = merge(found, s.found, plan.limit);
				found = more.found;
				if (more.added > 0) fallbacks.push(...s.fallbacks, "subject-words");
			}
		}
	}
	if (
		question &&
		found.results.length < plan.limit &&
		found.rankedNewest === undefined &&
		!found.results.every((r) => shared.has(r.path))
	) {
		// A question is its words, not a strict AND: the sessions that have most of them (across their entries) come next.
		const loose = byMostWords(db, root, vocab, plan);
		if (loose) {
			const more = merge(found, loose.found, plan.limit);
			found = more.found;
			if (more.added > 0) fallbacks.push(loose.fallback);
		}
	} else if (found.results.every((r) => shared.has(r.path))) {
		const loose = byMostWords(db, root, vocab, plan);
		if (loose) {
			// Found only with boilerplate's help: those with some of the words in their own text too come first, then
			// the sessions with some of the words in their own text, then those with them in boilerplate only.
			const own = new Set(loose.found.results.map((r) => r.path));
			const both = found.results.filter((r) => own.has(r.path));
			const first = merge({ ...found, results: both }, loose.found, plan.limit);
			const more = merge(first.found, found, plan.limit);
			return {
				...more.found,
				totalSessions: Math.max(found.totalSessions + first.added, loose.found.totalSessions),
				match: loose.match,
				notice: joined(corrected.notice, loose.notice),
				...(corrected.correctedQuery ? { correctedQuery: corrected.correctedQuery } : {}),
				fallbacks: [...fallbacks.filter((f) => found.results.length > 0 || f !== "shared"), loose.fallback],
			};
		}
	}
	const notice = joined(corrected.notice, said, attempt.simplified ? "the query was simplified to run" : undefined) || undefined;
	return { ...found, match, ...corrected, notice, ...(fallbacks.length > 0 ? { fallbacks } : {}) };
}
