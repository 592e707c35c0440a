/**
 * Rewrites of a parsed query before it runs: the subject words of a question (its question words left out),
 * typo corrections to the closest vocabulary word, and the plain words of a query whose operators cannot run.
 */

import { DEFAULTS } from "../defaults.js";
import type { Database } from "../store/engine.js";
import { hasCjk } from "../text/cjk.js";
import { isVocabularyWord, wordsOf } from "../text/words.js";
import type { QueryNode } from "./parser.js";
import { isQuestionWord } from "./question-words.js";
import { closestWords, type Vocab } from "./vocabulary.js";

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

/** Every word of the query, ANDed: operators, phrases and prefixes dropped (the last retry of a query that cannot run). */
export function plainWords(root: QueryNode): QueryNode {
	return {
		kind: "and",
		items: flatWords(root)
			.flatMap((w) => wordsOf(w))
			.map((text) => ({ kind: "word", text, prefix: false })),
	};
}

/** A flag as typed (`-F`, `--since`): searched with the words around it, but not one of its subject words. */
function isFlag(text: string): boolean {
	return /^--?[\p{L}\p{N}]/u.test(text);
}

/**
 * The subject words of a plain list of words (a question), or undefined when the query has operators, phrases or
 * prefixes: its question words and flags left out (`tail -F error log` → `tail error log`).
 */
export function subjectWords(root: QueryNode): string[] | undefined {
	const items = root.kind === "and" ? root.items : [root];
	const words: string[] = [];
	for (const n of items) {
		if (n.kind !== "word" || n.prefix) return undefined;
		words.push(n.text);
	}
	const subject = words.filter((w) => !isQuestionWord(w) && !isFlag(w));
	return subject.length > 0 ? subject : words;
}

/** A plain list of words with question words or flags among its words: the subject words alone, ANDed. */
export function subjectOnly(root: QueryNode): QueryNode | undefined {
	const subject = subjectWords(root);
	if (!subject || root.kind !== "and" || subject.length === root.items.length) return undefined;
	return subject.length === 1
		? { kind: "word", text: subject[0], prefix: false }
		: { kind: "and", items: subject.map((text) => ({ kind: "word", text, prefix: false })) };
}

/** Replace words of the query tree (typo corrections). */
export function replaceWords(node: QueryNode, fixes: Map<string, string>): QueryNode {
	switch (node.kind) {
		case "word":
			return { ...node, text: fixes.get(node.text) ?? node.text };
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
 * word, not as another form): typed word → correction. An identifier (`PGBOUNCER_POOL_MODDE`, `db.connPool.sizee`,
 * `src/retyr/policy.ts`) is corrected part by part: only its parts that match nothing change, the rest stays as
 * typed. Quoted words, prefixes, CJK and short words are kept.
 */
export function typoFixes(db: Database, root: QueryNode, vocab: Vocab): Map<string, string> {
	const fixes = new Map<string, string>();
	let checked = 0;
	const matchesSomething = (word: string) => vocab.has(word) || vocab.expand(word).length > 0 || vocab.forms(word).length > 0;
	for (const w of positiveWords(root)) {
		if (w.prefix || hasCjk(w.text) || fixes.has(w.text)) continue;
		let text = w.text;
		for (const part of w.text.matchAll(/[\p{L}\p{N}\p{Co}]+/gu)) {
			const word = wordsOf(part[0])[0];
			if (!word || !isVocabularyWord(word) || checked >= DEFAULTS.typoMaxWords) continue;
			checked++;
			if (matchesSomething(word)) continue;
			const best = closestWords(db, word, 1)[0];
			if (best) text = text.replace(part[0], best);
		}
		if (text !== w.text) fixes.set(w.text, text);
	}
	return fixes;
}
