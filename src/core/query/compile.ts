/**
 * Query tree → FTS5 MATCH text. Every word is quoted by us, so user text never reaches FTS5 syntax.
 * Words of 3+ characters also match indexed words that contain them (through the vocabulary's trigram
 * index); with `forms`, plain English words also match the vocabulary words sharing their stem; CJK runs
 * become bigram phrases; a lone CJK character becomes a prefix query. Without `positions` (the deep table
 * holds words only), a phrase becomes all of its words. The words of a long query share one budget of
 * substring expansions (DEFAULTS.substringQueryExpansions). A question's words (`the`, `did`) match only
 * themselves: no one remembers an identifier by them, and expanded they would match almost every entry
 * (`the` → `other`, `there`, …; `did` → `candidate`) at the cost of a term each. Infix expansion is for identifiers
 * (`tateSto`), long tokens and a word alone; a short plain word among others matches the words it begins
 * (`retry` → `retryPolicy`), and in a question only itself and its forms: inside other words it is mostly other
 * words (`text` → `context`, `plain` → `explain`), and those fill the top with text many sessions share.
 */

import { DEFAULTS } from "../defaults.js";
import { cjkQueryGrams, splitCjk } from "../text/cjk.js";
import { wordsOf } from "../text/words.js";
import type { QueryNode } from "./parser.js";
import { isQuestionWord } from "./question-words.js";

/** Indexed words containing a fragment (not the fragment itself), best first. */
export type Expander = (fragment: string) => string[];

export interface CompileOptions {
	/** Expand words to the indexed words that contain them (off: the safer retry form). Default true. */
	substrings?: boolean;
	/** Vocabulary words sharing a plain word's stem (other forms of it); absent: no word forms. */
	forms?: Expander;
	/** Whether the table has positions (phrases); default true. */
	positions?: boolean;
	/** Words the index surely lacks (a vocabulary word it never saw): a query requiring one matches nothing, and is not run. */
	absent?: (word: string) => boolean;
	/** Words and phrases of the whole query, when the tree compiled is one of them (default: the tree's). */
	queryWords?: number;
	/** Vocabulary words beginning with a word: what a short plain word among others expands to (absent: nothing). */
	prefixes?: Expander;
}

/** A query word as typed that may be stemmed: letters only, capitalised at most at its start (`reserveStock`, `SQLite`, `PGBOUNCER` are names). */
export function isStemmable(text: string): boolean {
	return /^[A-Za-z][a-z]+$/.test(text);
}

export interface CompiledQuery {
	/** FTS5 MATCH expression. */
	match: string;
	/** Strings to mark in snippets: the words, their expansions and CJK runs searched for. */
	terms: string[];
	/** The query requires a word the index lacks, with nothing else standing for it: it matches nothing. */
	matchesNothing?: true;
}

export type CompileResult = { ok: true; query: CompiledQuery } | { ok: false; error: string };

function quote(text: string): string {
	return `"${text.replace(/"/g, '""')}"`;
}

class Compiler {
	readonly terms = new Set<string>();
	/** Query words (as typed) that compiled to a word the index lacks and nothing else. */
	readonly absentWords = new Set<string>();
	private readonly substrings: boolean;
	private readonly positions: boolean;
	/** Shortest word that also matches the indexed words containing it. */
	private readonly fragmentMin: number;
	/** Indexed words containing it that one word of this query may expand to (the query's words share a budget). */
	private readonly perWord: number;
	/** Words and phrases of the query. */
	private readonly words: number;
	constructor(
		private readonly expand: Expander,
		private readonly options: CompileOptions,
		words: number,
	) {
		this.substrings = options.substrings ?? true;
		this.positions = options.positions ?? true;
		this.fragmentMin = words > 1 ? DEFAULTS.substringMinCharsAmongWords : DEFAULTS.substringMinChars;
		this.perWord = Math.max(DEFAULTS.substringMinExpansions, Math.floor(DEFAULTS.substringQueryExpansions / Math.max(1, words)));
		this.words = words;
	}

	/** Which indexed words containing a word it also matches: any (infix), or those it begins. */
	private expansion(word: string, plain: boolean): "infix" | "prefix" {
		return !plain || word.length >= DEFAULTS.infixMinChars || this.words <= 1 ? "infix" : "prefix";
	}

	node(node: QueryNode, positive: boolean): string | undefined {
		switch (node.kind) {
			case "word":
				return this.word(node.text, node.prefix, positive);
			case "phrase":
				return this.phrase(node.text, node.prefix, positive);
			case "or": {
				const parts = node.items.map((n) => this.node(n, positive)).filter((p): p is string => p !== undefined);
				if (parts.length === 0) return undefined;
				return parts.length === 1 ? parts[0] : `(${parts.join(" OR ")})`;
			}
			case "not":
				return undefined; // FTS5 has only binary NOT: an exclusion counts only beside something to match

			case "and":
				return this.and(node.items, positive);
		}
	}

	private and(items: QueryNode[], positive: boolean): string | undefined {
		const include: string[] = [];
		const exclude: string[] = [];
		for (const item of items) {
			const part = item.kind === "not" ? this.node(item.item, !positive) : this.node(item, positive);
			if (part === undefined) continue;
			(item.kind === "not" ? exclude : include).push(part);
		}
		if (include.length === 0) return undefined;
		let expr = include.length === 1 ? include[0] : `(${include.join(" AND ")})`;
		for (const ex of exclude) expr = `(${expr} NOT ${ex})`;
		return expr;
	}

	private word(text: string, prefix: boolean, positive: boolean): string | undefined {
		const pieces = splitCjk(text);
		const parts: string[] = [];
		for (const piece of pieces) {
			if (piece.cjk) {
				const { grams, prefix: charPrefix } = cjkQueryGrams(piece.text);
				if (positive) this.terms.add(piece.text);
				parts.push(this.sequence(grams, charPrefix));
				continue;
			}
			const words = wordsOf(piece.text);
			if (words.length === 0) continue;
			if (positive) for (const w of words) this.terms.add(w);
			const isLast = piece === pieces[pieces.length - 1];
			if (words.length > 1 || (prefix && isLast)) {
				parts.push(this.sequence(words, prefix && isLast));
				continue;
			}
			const plain = pieces.length === 1 && isStemmable(piece.text);
			const single = this.single(words[0], positive, plain);
			if (single.absent) this.absentWords.add(text);
			parts.push(single.match);
		}
		if (parts.length === 0) return undefined;
		return parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`;
	}

	/** Tokens that must follow each other: a phrase, or all of them where the table has no positions. */
	private sequence(tokens: string[], prefix: boolean): string {
		if (this.positions || tokens.length === 1) return quote(tokens.join(" ")) + (prefix ? "*" : "");
		const last = tokens.length - 1;
		return `(${tokens.map((t, i) => quote(t) + (prefix && i === last ? "*" : "")).join(" AND ")})`;
	}

	/** One word: itself, or itself and the indexed words that contain it (and its other forms); `plain`: typed as a plain word. */
	private single(word: string, positive: boolean, plain: boolean): { match: string; absent: boolean } {
		const more = new Set<string>();
		if (!isQuestionWord(word)) {
			const kind = this.substrings && word.length >= this.fragmentMin ? this.expansion(word, plain) : "none";
			const containing = kind === "infix" ? this.expand(word) : kind === "prefix" ? (this.options.prefixes?.(word) ?? []) : [];
			for (const w of containing.slice(0, this.perWord)) more.add(w);
			if (this.options.forms && plain) for (const w of this.options.forms(word)) more.add(w);
		}
		more.delete(word);
		if (positive) for (const w of more) this.terms.add(w);
		if (more.size === 0) return { match: quote(word), absent: this.options.absent?.(word) ?? false };
		return { match: `(${[word, ...more].map(quote).join(" OR ")})`, absent: false };
	}

	private phrase(text: string, prefix: boolean, positive: boolean): string | undefined {
		const pieces = splitCjk(text);
		const tokens: string[] = [];
		pieces.forEach((piece, i) => {
			if (!piece.cjk) {
				tokens.push(...wordsOf(piece.text));
				return;
			}
			const chars = Array.from(piece.text);
			const { grams } = cjkQueryGrams(piece.text);
			// In the index a run ends with its last character; a phrase continuing past the run must include it.
			const continues = pieces.slice(i + 1).some((p) => p.cjk || wordsOf(p.text).length > 0);
			if (chars.length === 1) tokens.push(chars[0]);
			else tokens.push(...grams, ...(continues ? [chars[chars.length - 1]] : []));
		});
		if (tokens.length === 0) return undefined;
		if (positive) this.terms.add(text.trim());
		return this.sequence(tokens, prefix);
	}
}

/** Whether a query tree can match nothing because one word it requires (outside OR and NOT) is absent. */
function requiresAbsent(node: QueryNode, absent: Set<string>): boolean {
	switch (node.kind) {
		case "word":
			return absent.has(node.text);
		case "phrase":
		case "not":
			return false;
		case "or":
			return node.items.every((item) => requiresAbsent(item, absent));
		case "and":
			return node.items.some((item) => requiresAbsent(item, absent));
	}
}

/** The words and phrases of a query tree. */
function wordCount(node: QueryNode): number {
	switch (node.kind) {
		case "word":
		case "phrase":
			return 1;
		case "not":
			return wordCount(node.item);
		default:
			return node.items.reduce((n, item) => n + wordCount(item), 0);
	}
}

/** Compile a parsed query. */
export function compileQuery(root: QueryNode, expand: Expander, options: CompileOptions = {}): CompileResult {
	const compiler = new Compiler(expand, options, options.queryWords ?? wordCount(root));
	const match = compiler.node(root, true);
	if (match === undefined) {
		return { ok: false, error: "the query has no word to search for outside NOT (add a word that must match)" };
	}
	const nothing = compiler.absentWords.size > 0 && requiresAbsent(root, compiler.absentWords);
	return { ok: true, query: { match, terms: [...compiler.terms], ...(nothing ? { matchesNothing: true as const } : {}) } };
}
