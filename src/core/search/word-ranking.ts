/**
 * The "most of the words" ranking, for a question no entry answers with every word: each word (or CJK
 * character pair) weighs by its rarity (IDF, squared), an entry scores the weights of the words it has, prose
 * and names a little above tool output, long entries a little below short ones, and a session adds a share of its second-best entry to its best, so that
 * one rare word present beats several common ones and several matching entries beat one weak match. Recency
 * breaks ties and is worth a small fraction of the rarest weight.
 *
 * Its work is bounded whatever the size of the history: each word is one FTS5 query per table reading the rowids
 * of its newest `DEFAULTS.wordRankScan` matches (a word found in more entries is common: its rarity is its density
 * in that window, and entries older than the window miss only its small weight); the best-scored entries are then
 * read with the search's filters in one query.
 */

import { DEFAULTS } from "../defaults.js";
import type { Role } from "../parse/entry-text.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { type Candidate, filteredEntries, ownMatch, type SearchPlan } from "./run.js";

/** One word of the question: its FTS5 expression (the word, its expansions and forms). */
export interface WeightedWord {
	match: string;
	/** The same in the deep table's form (no positions). */
	deepMatch: string;
}

/** How much each role's text counts: a session's name and the user's words as much as anything, tool output less. */
const ROLE_WEIGHT: Record<Role, number> = { user: 1, meta: 1, summary: 1, assistant: 0.9, tool: 0.75 };

/** The rowids of a query's newest `count` matches: one row of text, not a row each (rows cost the engine's bindings more than the search). */
function newestRowids(db: Database, table: "entries_fts" | "entries_deep", match: string, count: number): number[] {
	const ids = queryAll<{ ids: string | null }>(
		db,
		`SELECT group_concat(id) AS ids FROM (SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?)`,
		[match, count],
	)[0]?.ids;
	return ids ? ids.split(",").map(Number) : [];
}

/** A word's matching entries within its window, and its weight. */
function weighOne(db: Database, word: WeightedWord, total: number): { ids: number[]; idf: number } | undefined {
	const scan = DEFAULTS.wordRankScan;
	const head = newestRowids(db, "entries_fts", ownMatch(word.match, []), scan);
	const deep = newestRowids(db, "entries_deep", word.deepMatch, scan);
	// A table read to the bound reaches back only so far: the word's window starts there, for both tables.
	let from = 0;
	for (const ids of [head, deep]) if (ids.length >= scan) from = Math.max(from, Math.min(...ids));
	const ids = [...new Set([...head, ...deep])].filter((id) => id >= from);
	if (ids.length === 0) return undefined;
	// Entries holding the word: all of them when nothing was cut, else its density in the window times the whole.
	const holding = from === 0 ? ids.length : Math.max(ids.length, (ids.length * total) / (total - from + 1));
	return { ids, idf: Math.log((total + 1) / holding) ** 2 }; // squared: one rare word outweighs several common ones
}

/** A session's weight from its entries' weights, best first: the best plus a share of the second. */
function sessionWeight(weights: number[]): number {
	return (weights[0] ?? 0) + 0.2 * (weights[1] ?? 0);
}

/**
 * Entries holding any of the words, filtered by the plan, ordered by their session's weight then their own (a
 * session's entries together, best first); `score` is minus the session's weight.
 */
export function rankByWords(db: Database, words: WeightedWord[], plan: SearchPlan): Candidate[] {
	const total = queryAll<{ n: number }>(db, "SELECT coalesce(max(id), 0) AS n FROM entries")[0]?.n ?? 0;
	if (total === 0 || words.length === 0) return [];
	const score = new Map<number, number>();
	let rarest = 0;
	for (const word of words) {
		const weighed = weighOne(db, word, total);
		if (!weighed) continue;
		rarest = Math.max(rarest, weighed.idf);
		for (const id of weighed.ids) score.set(id, (score.get(id) ?? 0) + weighed.idf);
	}
	const top = [...score.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, DEFAULTS.wordRankTop);
	const recency = 0.05 * rarest;
	const weight = new Map<number, number>();
	const bySession = new Map<number, Candidate[]>();
	for (const entry of filteredEntries(
		db,
		top.map(([id]) => id),
		plan,
	)) {
		// A long entry holds many words by chance: its weight shrinks gently with its length (BM25 does the same).
		const length = 1 / (1 + 0.25 * Math.log(1 + (entry.chars ?? 0) / 500));
		weight.set(entry.id, (score.get(entry.id) ?? 0) * ROLE_WEIGHT[entry.role ?? "tool"] * length + (recency * entry.id) / total);
		const list = bySession.get(entry.session) ?? [];
		list.push(entry);
		bySession.set(entry.session, list);
	}
	const weightOf = (c: Candidate) => weight.get(c.id) ?? 0;
	const sessions = [...bySession.values()].map((list) => {
		list.sort((a, b) => weightOf(b) - weightOf(a) || b.id - a.id);
		return { list, weight: sessionWeight(list.map(weightOf)) };
	});
	sessions.sort((a, b) => b.weight - a.weight || b.list[0].id - a.list[0].id);
	return sessions.flatMap(({ list, weight: w }) => list.map((c) => ({ ...c, score: -w })));
}
