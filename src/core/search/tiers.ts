/**
 * One query run in tiers: as typed (with substrings) first; while sessions are missing, its other word forms,
 * then the whole text of cut entries (words without positions), then the boilerplate many sessions share, each
 * tier only adding sessions after those found. And the fallback of a question no entry has every word of: entries ranked by the words they have.
 */

import { type CompiledQuery, type CompileOptions, compileQuery } from "../query/compile.js";
import type { QueryNode } from "../query/parser.js";
import { subjectWords } from "../query/rewrite.js";
import type { Vocab } from "../query/vocabulary.js";
import type { Database } from "../store/engine.js";
import { splitCjk } from "../text/cjk.js";
import { rankedCandidates, type SearchPlan, type Table } from "./run.js";
import type { SearchResponse } from "./search.js";
import { shapeResults } from "./shape.js";
import { rankByWords, type WeightedWord } from "./word-ranking.js";

/** Sessions found so far. */
export type Found = Pick<SearchResponse, "results" | "totalSessions" | "rankedNewest">;

/**
 * What the tiers found and the FTS5 expression of the query as typed (`shared`: the sessions found only in the
 * boilerplate tier, by path), or why the query cannot be compiled.
 */
export type Tiers = { found: Found; match: string; fallbacks: string[]; shared: string[] } | { error: string };

function run(db: Database, query: CompiledQuery, plan: SearchPlan, table: Table, shared = false): Found {
	if (query.matchesNothing) return { results: [], totalSessions: 0 };
	const { candidates, rankedNewest } = rankedCandidates(db, query, plan, table, shared);
	return { ...shapeResults(db, candidates, query, plan, table), rankedNewest };
}

/** Sessions of `more` not already in `found`, after them. */
export function merge(found: Found, more: Found, limit: number): { found: Found; added: number; paths: string[] } {
	const seen = new Set(found.results.map((r) => r.path));
	const add = more.results.filter((r) => !seen.has(r.path));
	const results = [...found.results, ...add].slice(0, limit);
	return {
		found: { results, totalSessions: found.totalSessions + add.length, rankedNewest: found.rankedNewest ?? more.rankedNewest },
		added: add.length,
		paths: add.map((r) => r.path),
	};
}

/** The tiers of `root`: all of them, or the query as typed only. */
export function tiers(
	db: Database,
	root: QueryNode,
	vocab: Vocab,
	plan: SearchPlan,
	typed: CompileOptions,
	which: "all" | "as typed" = "all",
): Tiers {
	const options = { ...typed, absent: vocab.absent, prefixes: vocab.prefixed };
	const exact = compileQuery(root, vocab.expand, options);
	if (!exact.ok) return { error: exact.error };
	let found = run(db, exact.query, plan, "entries_fts");
	const fallbacks: string[] = [];
	// A query matching more entries than the rank window is common enough: the sessions missing are older, not elsewhere.
	const done = () => ({ found, match: exact.query.match, fallbacks, shared: [] as string[] });
	if (which === "as typed" || found.results.length >= plan.limit || found.rankedNewest !== undefined) return done();
	const forms = compileQuery(root, vocab.expand, { ...options, forms: vocab.forms });
	if (forms.ok && forms.query.match !== exact.query.match) {
		const more = merge(found, run(db, forms.query, plan, "entries_fts"), plan.limit);
		found = more.found;
		if (more.added > 0) fallbacks.push("word-forms");
	}
	if (found.results.length >= plan.limit) return done();
	const deep = compileQuery(root, vocab.expand, { ...options, forms: vocab.forms, positions: false });
	if (deep.ok) {
		const more = merge(found, run(db, deep.query, plan, "entries_deep"), plan.limit);
		found = more.found;
		if (more.added > 0) fallbacks.push("deep");
	}
	if (found.results.length >= plan.limit || !plan.shared) return done();
	// Last, the boilerplate many sessions share (sync/shared-text.ts): after every session's own words.
	const more = merge(found, run(db, exact.query, plan, "entries_fts", true), plan.limit);
	found = more.found;
	if (more.added > 0) fallbacks.push("shared");
	return { found, match: exact.query.match, fallbacks, shared: more.paths };
}

/** One CJK run of 3+ characters: its overlapping pairs, each weighed alone. */
function cjkPairs(run: string): string[] {
	const cs = Array.from(run);
	const pairs: string[] = [];
	for (let i = 0; i + 1 < cs.length; i++) pairs.push(cs[i] + cs[i + 1]);
	return [...new Set(pairs)];
}

/** The fallback of a question no entry has every word of: entries ranked by the words (and CJK pairs) they have. */
export function byMostWords(
	db: Database,
	root: QueryNode,
	vocab: Vocab,
	plan: SearchPlan,
): { found: Found; match: string; notice: string; fallback: string } | undefined {
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
		const each = { forms: vocab.forms, prefixes: vocab.prefixed, queryWords: units.length };
		const head = compileQuery(node, vocab.expand, { ...each, absent: vocab.absent });
		const deep = compileQuery(node, vocab.expand, { ...each, positions: false });
		if (!head.ok || !deep.ok || head.query.matchesNothing) continue;
		words.push({ match: head.query.match, deepMatch: deep.query.match });
		for (const t of head.query.terms) terms.add(t);
		matches.push(head.query.match);
	}
	const found = shapeResults(db, rankByWords(db, words, plan), { match: matches.join(" OR "), terms: [...terms] }, plan, "entries_deep");
	if (found.results.length === 0) return undefined;
	return pairs
		? {
				found,
				match: matches.join(" OR "),
				notice: "no entry has the Chinese or Japanese text as written; ranked by how many of its character pairs they have",
				fallback: "cjk-pairs",
			}
		: {
				found,
				match: matches.join(" OR "),
				notice: "no session has every word; ranked by the words they have, rare words weighing most",
				fallback: "words",
			};
}
