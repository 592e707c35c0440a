/**
 * Why a search found nothing (issue 34, point 6): which filter hid how many sessions that match, which words no
 * session has, and what to try next. Worked out only for an empty reply, by searching again without the filters
 * (all of them, then each alone) and looking each subject word up once.
 */

import { DEFAULTS } from "../defaults.js";
import { compileQuery } from "../query/compile.js";
import { parseQuery } from "../query/parser.js";
import { subjectWords } from "../query/rewrite.js";
import { searchVocabulary } from "../query/vocabulary.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import type { SearchRequest, SearchResponse } from "./search.js";

/** A filter of a search request, by the name its faces give it (`--since`, `since`). */
export type FilterName = "project" | "agent" | "scope" | "since" | "until" | "gone" | "role" | "branch" | "exclude";

/** Why an empty reply is empty, and what to try. */
export interface WhyEmpty {
	/** Filters that hid sessions matching the query: each with how many match without it (the other filters kept). */
	hiddenBy: { filter: FilterName; value: string; sessions: number }[];
	/** Sessions the query matches with no filter at all, when no filter alone explains the empty reply. */
	withoutFilters?: number;
	/** Words of the query no session has, in any form or inside another word. */
	missing: string[];
	/** Queries to try next (the query without its missing words, or fewer of its words). */
	tryQueries: string[];
	/** One line saying all of it, for a face to show. */
	message: string;
}

const FILTERS: FilterName[] = ["project", "agent", "scope", "since", "until", "gone", "role", "branch", "exclude"];

/** The filters a request sets, with their values as text. */
function activeFilters(request: SearchRequest): { filter: FilterName; value: string }[] {
	return FILTERS.flatMap((filter): { filter: FilterName; value: string }[] => {
		const value = request[filter];
		if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
		if (filter === "exclude") return [{ filter, value: "the calling session's own messages" }];
		return [{ filter, value: Array.isArray(value) ? value.join(",") : String(value) }];
	});
}

function without(request: SearchRequest, filters: FilterName[]): SearchRequest {
	const next: SearchRequest = { ...request, limit: DEFAULTS.searchLimit };
	for (const f of filters) delete next[f];
	return next;
}

/** Whether the index holds a word in any form: itself, inside another word, another form of it, in a cut middle. */
function indexHas(db: Database, word: string, vocab: ReturnType<typeof searchVocabulary>): boolean {
	const node = { kind: "word", text: word, prefix: false } as const;
	for (const positions of [true, false]) {
		const compiled = compileQuery(node, vocab.expand, { forms: vocab.forms, prefixes: vocab.prefixed, positions });
		if (!compiled.ok) return true;
		const table = positions ? "entries_fts" : "entries_deep";
		if (queryAll(db, `SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT 1`, [compiled.query.match]).length > 0) return true;
	}
	return false;
}

/** `1 session that matches`, `3 sessions that match`. */
export function sessionsThatMatch(n: number): string {
	return n === 1 ? "1 session that matches" : `${n} sessions that match`;
}

/** Why `response` (empty) is empty; `run` searches without explaining (the search itself). */
export function whyEmpty(
	db: Database,
	request: SearchRequest,
	response: SearchResponse,
	run: (request: SearchRequest) => SearchResponse,
): WhyEmpty | undefined {
	if (response.error || response.results.length > 0) return undefined;
	const active = activeFilters(request);
	const hiddenBy: WhyEmpty["hiddenBy"] = [];
	let withoutFilters: number | undefined;
	if (active.length > 0) {
		const none = run(without(request, FILTERS)).totalSessions;
		if (none > 0) {
			for (const { filter, value } of active) {
				const sessions = active.length === 1 ? none : run(without(request, [filter])).totalSessions;
				if (sessions > 0) hiddenBy.push({ filter, value, sessions });
			}
			if (hiddenBy.length === 0) withoutFilters = none;
		}
	}
	const parsed = parseQuery(request.query);
	const words = parsed.ok ? (subjectWords(parsed.root) ?? []) : [];
	const vocab = searchVocabulary(db);
	const missing = hiddenBy.length > 0 || withoutFilters ? [] : words.filter((w) => !indexHas(db, w, vocab));
	const kept = words.filter((w) => !missing.includes(w));
	const tryQueries = missing.length > 0 && kept.length > 0 ? [kept.join(" ")] : [];
	const parts = [
		...hiddenBy.map((h) => `${h.filter === "exclude" ? "leaving out" : h.filter} ${h.value} hid ${sessionsThatMatch(h.sessions)}`),
		...(withoutFilters ? [`the filters together hid ${sessionsThatMatch(withoutFilters)}`] : []),
		...(missing.length > 0 ? [`no session has ${missing.map((w) => `"${w}"`).join(", ")}`] : []),
		...tryQueries.map((q) => `try "${q}"`),
	];
	if (parts.length === 0)
		parts.push(words.length > 1 ? "no session has these words together: try fewer of them" : "try another word for it");
	return { hiddenBy, ...(withoutFilters ? { withoutFilters } : {}), missing, tryQueries, message: parts.join("; ") };
}
