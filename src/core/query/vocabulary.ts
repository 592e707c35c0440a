/**
 * What the vocabulary answers for a query word: the indexed words containing it (substrings), sharing its
 * stem (word forms), or closest to it (typos, through the vocabulary's trigram index). Every lookup is bounded.
 */

import { DEFAULTS } from "../defaults.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { stem } from "../text/stem.js";
import { isPlainWord, isVocabularyWord } from "../text/words.js";
import type { Expander } from "./compile.js";

/** The vocabulary a query expands against: words containing a fragment, and other forms of a word. */
export interface Vocab {
	expand: Expander;
	/** Indexed words beginning with a word (not the word itself), shortest first. */
	prefixed: Expander;
	forms: Expander;
	/** Whether the vocabulary holds a word exactly. */
	has: (word: string) => boolean;
	/** A word the index surely lacks: a vocabulary word (4+ characters, see isVocabularyWord) the vocabulary does not hold. */
	absent: (word: string) => boolean;
}

/**
 * The vocabulary of one search. Each lookup is made once per word: the tiers and fallbacks of one search compile
 * the same words several times (as typed, with their forms, without positions, each word alone). Nothing is kept
 * beyond the search, so an index that changed between two searches is never answered from an older lookup.
 */
export function searchVocabulary(db: Database): Vocab {
	const has = remembered((word: string) => inVocabulary(db, word));
	return {
		expand: remembered(vocabularyExpander(db)),
		prefixed: remembered(prefixExpander(db)),
		forms: remembered(wordForms(db)),
		has,
		absent: (word) => isVocabularyWord(word) && !has(word),
	};
}

function remembered<T>(lookup: (word: string) => T): (word: string) => T {
	const seen = new Map<string, T>();
	return (word) => {
		if (seen.has(word)) return seen.get(word) as T;
		const found = lookup(word);
		seen.set(word, found);
		return found;
	};
}

/** Indexed words containing `fragment`, shortest first (the vocabulary's trigram index). */
function vocabularyExpander(db: Database): Expander {
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

/** Indexed words beginning with `word`, shortest first: a range of the vocabulary's own index. */
function prefixExpander(db: Database): Expander {
	return (word) =>
		queryAll<{ term: string }>(
			db,
			"SELECT term FROM (SELECT term FROM vocab WHERE term > ? AND term < ? LIMIT ?) ORDER BY length(term), term LIMIT ?",
			[word, `${word}\u{10ffff}`, DEFAULTS.substringScan, DEFAULTS.substringMaxExpansions],
		).map((r) => r.term);
}

/** Other forms of a plain English word in the vocabulary (`lock` → `locked`, `locking`, `locks`), shortest first. */
function wordForms(db: Database): Expander {
	return (word) => {
		if (!isPlainWord(word)) return [];
		return queryAll<{ term: string }>(db, "SELECT term FROM vocab WHERE stem = ? AND term != ? ORDER BY length(term), term LIMIT ?", [
			stem(word),
			word,
			DEFAULTS.wordFormsMax,
		]).map((r) => r.term);
	};
}

/** Whether the vocabulary holds a word exactly. */
function inVocabulary(db: Database, word: string): boolean {
	return queryAll(db, "SELECT 1 FROM vocab WHERE term = ?", [word]).length > 0;
}

/** Entries whose positional index holds a word (FTS5's own count, read from its vocabulary). */
function entriesWith(db: Database, word: string): number {
	return queryAll<{ doc: number }>(db, "SELECT doc FROM entries_terms WHERE term = ?", [word])[0]?.doc ?? 0;
}

/** Edit distance with adjacent transpositions (optimal string alignment), or `max + 1` once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
	if (Math.abs(a.length - b.length) > max) return max + 1;
	let prev2: number[] = [];
	let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		let best = i;
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
			row.push(d);
			best = Math.min(best, d);
		}
		if (best > max) return max + 1;
		prev2 = prev;
		prev = row;
	}
	return prev[b.length];
}

/**
 * Vocabulary words within edit distance 1 (words up to 7 characters) or 2 of `word`, closest first, then the
 * most used: the words sharing most of its trigrams are the candidates. Short words get one edit only: two
 * edits turn an English word absent from the sessions into another word (`choose` → `close`).
 */
export function closestWords(db: Database, word: string, limit = 3): string[] {
	const chars = Array.from(word);
	if (chars.length < DEFAULTS.typoMinChars) return [];
	const max = chars.length <= 7 ? 1 : 2;
	const shared = new Map<number, number>();
	const grams = new Set<string>();
	for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(""));
	for (const gram of grams) {
		for (const { id } of queryAll<{ id: number }>(db, "SELECT rowid AS id FROM vocab_fts WHERE vocab_fts MATCH ? LIMIT ?", [
			`"${gram.replace(/"/g, '""')}"`,
			DEFAULTS.typoScan,
		])) {
			shared.set(id, (shared.get(id) ?? 0) + 1);
		}
	}
	const ids = [...shared.entries()]
		.sort((a, b) => b[1] - a[1] || a[0] - b[0])
		.slice(0, DEFAULTS.typoCandidates)
		.map(([id]) => id);
	if (ids.length === 0) return [];
	const near: { term: string; distance: number; uses: number }[] = [];
	for (const { term } of queryAll<{ term: string }>(
		db,
		`SELECT term FROM vocab WHERE id IN (${ids.join(",")}) AND length(term) BETWEEN ? AND ?`,
		[chars.length - max, chars.length + max],
	)) {
		const distance = editDistance(word, term, max);
		if (distance <= max && term !== word) near.push({ term, distance, uses: entriesWith(db, term) });
	}
	near.sort((a, b) => a.distance - b.distance || b.uses - a.uses || (a.term < b.term ? -1 : 1));
	return near.slice(0, limit).map((n) => n.term);
}
