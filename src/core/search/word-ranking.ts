/**
 * The "most of the words" ranking, for a question no entry answers with every word: each word (or CJK
 * character pair) weighs by its rarity (IDF, squared), an entry scores the weights of the words it has, prose
 * and names a little above tool output, long entries a little below short ones, and a session adds a share of its second-best entry to its best, so that
 * one rare word present beats several common ones and several matching entries beat one weak match. Recency
 * breaks ties and is worth a small fraction of the rarest weight.
 */

import { DEFAULTS } from "../defaults.js";
import type { Role } from "../parse/entry-text.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";

/** One word of the question: its FTS5 expression (the word, its expansions and forms). */
export interface WeightedWord {
	match: string;
	/** The same in the deep table's form (no positions). */
	deepMatch: string;
}

/** An entry ranked by its words: higher `weight` is better. */
export interface WordRanked {
	id: number;
	weight: number;
}

/** How much each role's text counts: a session's name and the user's words as much as anything, tool output less. */
const ROLE_WEIGHT: Record<Role, number> = { user: 1, meta: 1, summary: 1, assistant: 0.9, tool: 0.75 };

function rowids(db: Database, table: "entries_fts" | "entries_deep", match: string): number[] {
	return queryAll<{ id: number }>(db, `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?`, [
		match,
		DEFAULTS.wordRankScan,
	]).map((r) => r.id);
}

/** Entries holding any of the words, best first (at most `DEFAULTS.wordRankTop`). */
export function rankByWords(db: Database, words: WeightedWord[]): WordRanked[] {
	const total = queryAll<{ n: number }>(db, "SELECT coalesce(max(id), 0) AS n FROM entries")[0]?.n ?? 0;
	if (total === 0 || words.length === 0) return [];
	const score = new Map<number, number>();
	let rarest = 0;
	for (const word of words) {
		const ids = new Set([...rowids(db, "entries_fts", word.match), ...rowids(db, "entries_deep", word.deepMatch)]);
		if (ids.size === 0) continue;
		const idf = Math.log((total + 1) / ids.size) ** 2; // squared: one rare word outweighs several common ones
		rarest = Math.max(rarest, idf);
		for (const id of ids) score.set(id, (score.get(id) ?? 0) + idf);
	}
	const top = [...score.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, DEFAULTS.wordRankTop);
	if (top.length === 0) return [];
	const facts = new Map<number, { role: Role | null; chars: number | null }>();
	for (const r of queryAll<{ id: number; role: Role | null; chars: number | null }>(
		db,
		`SELECT id, role, chars FROM entries WHERE id IN (${top.map(([id]) => id).join(",")})`,
	))
		facts.set(r.id, r);
	const recency = 0.05 * rarest;
	return top
		.map(([id, s]) => {
			const f = facts.get(id);
			// A long entry holds many words by chance: its weight shrinks gently with its length (BM25 does the same).
			const length = 1 / (1 + 0.25 * Math.log(1 + (f?.chars ?? 0) / 500));
			return { id, weight: s * ROLE_WEIGHT[f?.role ?? "tool"] * length + (recency * id) / total };
		})
		.sort((a, b) => b.weight - a.weight || b.id - a.id);
}

/** A session's weight from its entries' weights (best first): the best plus a share of the second. */
export function sessionWeight(weights: number[]): number {
	return (weights[0] ?? 0) + 0.2 * (weights[1] ?? 0);
}
