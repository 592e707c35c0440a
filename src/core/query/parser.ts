/**
 * One reading of a query that suits people and agents (README, "Queries"). Syntax counts only where it is
 * clearly syntax: `AND`/`OR`/`NOT` in capitals, `"quotes"`, `prefix*`, parentheses around an operator, and a
 * leading `-` before a word in a short keyword query. A query that reads as a question (a `?`, the words around a
 * question, question words) is read as its words: only quotes count, the words around the question are left out
 * (filler.ts), and brackets, flags (`tail -F`), paths and code are words. Parsing never throws: stray operators
 * become words, an unbalanced quote is punctuation.
 */

import { DEFAULTS } from "../defaults.js";
import { asksInCjk, bareWord, fillerMask, stripFillerCjk } from "./filler.js";
import { isQuestionWord } from "./question-words.js";

export type QueryNode =
	| { kind: "word"; text: string; prefix: boolean }
	| { kind: "phrase"; text: string; prefix: boolean }
	| { kind: "and"; items: QueryNode[] }
	| { kind: "or"; items: QueryNode[] }
	| { kind: "not"; item: QueryNode };

/** How a query was read: as keywords with their syntax, or as a question's words. */
export type Reading = "keywords" | "question";

export type ParsedQuery =
	| {
			ok: true;
			root: QueryNode;
			reading: Reading;
			/** Every word of the query, ANDed, when the reading used syntax (the reading a search falls back to). */
			words?: QueryNode;
			/** The words around a question that were left out (`can you find`, `帮我找`). */
			leftOut?: string[];
	  }
	| { ok: false; error: string };

type Token =
	| { t: "word"; text: string; prefix: boolean }
	| { t: "phrase"; text: string; prefix: boolean }
	| { t: "(" }
	| { t: ")" }
	| { t: "OR" }
	| { t: "AND" }
	| { t: "NOT" }
	| { t: "-" };

/** A query of at most this many words is short: a leading `-` there excludes a word. */
const SHORT_QUERY_WORDS = 6;

/** Where the quote opening at `i` closes, or -1: an unbalanced quote is punctuation. */
function closingQuote(input: string, i: number): number {
	return input.indexOf('"', i + 1);
}

/** The text from `i` to the next space, quote or bracket. */
function wordAt(input: string, i: number): string {
	let j = i;
	while (j < input.length && !/[\s"()]/.test(input[j])) j++;
	return input.slice(i, j);
}

/**
 * A `-` that excludes: before a word of 3+ characters with a vowel (`-jitter`), a phrase or a group, in a short
 * query. `-F`, `-w`, `-la`, `-rf`, `-xzf` and `--since` are flags: words to search.
 */
function excludes(input: string, i: number, short: boolean): boolean {
	const next = input[i + 1];
	if (!short || next === undefined || /[\s-]/.test(next) || (i > 0 && !/[\s(]/.test(input[i - 1]))) return false;
	if (next === '"') return closingQuote(input, i + 1) > 0;
	if (next === "(") return true;
	const word = wordAt(input, i + 1).replace(/\*+$/, "");
	return word.length >= 3 && /[aeiouy]|[^\x00-\x7f]/i.test(word);
}

/** The tokens of a keyword query: every syntax counted. */
function lexKeywords(input: string, short: boolean, operators = true): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < input.length) {
		const c = input[i];
		if (/\s/.test(c)) {
			i++;
		} else if (c === '"') {
			const end = closingQuote(input, i);
			if (end < 0) {
				i++;
				continue;
			}
			const text = input.slice(i + 1, end);
			i = end + 1;
			const prefix = input[i] === "*";
			if (prefix) i++;
			tokens.push({ t: "phrase", text, prefix });
		} else if (c === "(" || c === ")") {
			tokens.push({ t: c });
			i++;
		} else if (c === "-" && excludes(input, i, short)) {
			tokens.push({ t: "-" });
			i++;
		} else {
			let text = wordAt(input, i);
			i += text.length;
			// FTS5's NEAR(a b, N) is read as a plain group: people paste it, nobody means the word "near".
			if (operators && text === "NEAR" && input[i] === "(") continue;
			if (operators && (text === "OR" || text === "AND" || text === "NOT")) {
				tokens.push({ t: text });
				continue;
			}
			const prefix = text.endsWith("*");
			text = text.replace(/\*+$/, "");
			if (bareWord(text).length > 0) tokens.push({ t: "word", text: tidy(text), prefix });
		}
	}
	// Brackets group only around an operator: elsewhere (`retry() (not sure)`) they are punctuation.
	const grouping = tokens.some((t) => t.t === "OR" || t.t === "AND" || t.t === "NOT" || t.t === "-");
	return grouping ? tokens : tokens.filter((t) => t.t !== "(" && t.t !== ")");
}

/** A question's pieces: quoted phrases, and everything else split at spaces (brackets, flags and `*` are its words' punctuation). */
function piecesOf(input: string): { text: string; quoted: boolean }[] {
	const pieces: { text: string; quoted: boolean }[] = [];
	let i = 0;
	while (i < input.length) {
		if (/\s/.test(input[i])) {
			i++;
			continue;
		}
		const end = input[i] === '"' ? closingQuote(input, i) : -1;
		if (end > 0) {
			pieces.push({ text: input.slice(i + 1, end), quoted: true });
			i = end + 1;
			continue;
		}
		let j = i;
		while (j < input.length && !/\s/.test(input[j]) && !(input[j] === '"' && closingQuote(input, j) > 0)) j++;
		const text = input.slice(i, j).replace(/"/g, " ").trim();
		if (text) pieces.push({ text, quoted: false });
		i = Math.max(j, i + 1);
	}
	return pieces;
}

/** Whether a query reads as a question rather than keywords: a `?`, the words around a question, or question words. */
function readsAsQuestion(input: string): boolean {
	const unquoted = piecesOf(input).filter((p) => !p.quoted);
	if (unquoted.some((p) => /[?？]/.test(p.text))) return true;
	if (asksInCjk(unquoted.map((p) => p.text).join(" "))) return true;
	const words = unquoted.flatMap((p) => p.text.split(/[()]+/)).filter((w) => bareWord(w).length > 0);
	if (fillerMask(words).some(Boolean)) return true;
	// `AND AND`, `a OR b`: operators in capitals are syntax, not a question's words.
	return words.filter((w) => !/^(AND|OR|NOT)$/.test(w) && isQuestionWord(w)).length >= 2;
}

/** A question's tree: its words and quoted phrases ANDed, the words around it left out. */
function questionTree(input: string): { root?: QueryNode; leftOut: string[]; onlyAsking: boolean } {
	const pieces = piecesOf(input)
		.flatMap((p) => (p.quoted ? [p] : p.text.split(/[()]+/).map((text) => ({ text, quoted: false }))))
		.filter((p) => p.quoted || bareWord(p.text));
	const words = pieces.map((p) => (p.quoted ? "\u0000" : p.text));
	const mask = fillerMask(words, true);
	const leftOut: string[] = [];
	const items: QueryNode[] = [];
	pieces.forEach((p, i) => {
		if (p.quoted) {
			if (p.text.trim()) items.push({ kind: "phrase", text: p.text, prefix: false });
			return;
		}
		if (!bareWord(p.text)) return;
		if (mask[i]) {
			leftOut.push(bareWord(p.text));
			return;
		}
		const cjk = stripFillerCjk(p.text);
		leftOut.push(...cjk.leftOut);
		for (const text of cjk.text.split(/\s+/)) if (bareWord(text)) items.push({ kind: "word", text: tidy(text), prefix: false });
	});
	const asked = items.some((n) => n.kind !== "word" || !isQuestionWord(n.text));
	return { root: combine("and", items), leftOut, onlyAsking: items.length === 0 || !asked };
}

/** Recursive descent over the tokens: or := and (OR and)*; and := unary+; unary := (NOT|-) unary | primary. */
class Parser {
	private i = 0;
	private depth = 0;
	constructor(private readonly tokens: Token[]) {}

	parse(): QueryNode | undefined {
		const items: QueryNode[] = [];
		while (this.i < this.tokens.length) {
			const node = this.or();
			if (node) items.push(node);
			else this.i++; // a stray ")"
		}
		return combine("and", items);
	}

	private or(): QueryNode | undefined {
		const items: QueryNode[] = [];
		const first = this.and();
		if (first) items.push(first);
		while (this.peek()?.t === "OR") {
			this.i++;
			const next = this.and();
			if (next) items.push(next);
		}
		return combine("or", items);
	}

	private and(): QueryNode | undefined {
		const items: QueryNode[] = [];
		for (;;) {
			const tok = this.peek();
			if (!tok || tok.t === ")" || tok.t === "OR") break;
			if (tok.t === "AND") {
				this.i++;
				continue;
			}
			const node = this.unary();
			if (node) items.push(node);
		}
		return combine("and", items);
	}

	private unary(): QueryNode | undefined {
		const tok = this.tokens[this.i++];
		if (tok.t === "NOT" || tok.t === "-") {
			const next = this.peek();
			if (!next || next.t === ")" || next.t === "OR") return tok.t === "NOT" ? { kind: "word", text: "NOT", prefix: false } : undefined;
			const item = this.unary();
			return item ? { kind: "not", item } : undefined;
		}
		if (tok.t === "word") return { kind: "word", text: tok.text, prefix: tok.prefix };
		if (tok.t === "phrase") return { kind: "phrase", text: tok.text, prefix: tok.prefix };
		if (tok.t === "(") {
			if (this.depth > 32) return undefined;
			this.depth++;
			const inner = this.or();
			this.depth--;
			if (this.peek()?.t === ")") this.i++;
			return inner;
		}
		return undefined;
	}

	private peek(): Token | undefined {
		return this.tokens[this.i];
	}
}

function combine(kind: "and" | "or", items: QueryNode[]): QueryNode | undefined {
	if (items.length === 0) return undefined;
	if (items.length === 1) return items[0];
	return { kind, items };
}

function countTerms(node: QueryNode): number {
	return node.kind === "word" || node.kind === "phrase"
		? 1
		: node.kind === "not"
			? countTerms(node.item)
			: node.items.reduce((n, c) => n + countTerms(c), 0);
}

/** Every word of a tree, ANDed: operators dropped, excluded words and a phrase's words kept as words. */
function everyWord(node: QueryNode): QueryNode[] {
	switch (node.kind) {
		case "word":
			return [{ kind: "word", text: node.text, prefix: false }];
		case "phrase":
			return node.text
				.split(/\s+/)
				.filter((w) => bareWord(w))
				.map((text) => ({ kind: "word", text, prefix: false }));
		case "not":
			return everyWord(node.item);
		default:
			return node.items.flatMap(everyWord);
	}
}

/** A word as typed without the punctuation people put around it (`retry?`, `(redis`, `deadlock,`). */
function tidy(text: string): string {
	const bare = text.replace(/^[[{<(]+|[\]}>)?？!.,;:、。！，]+$/gu, "");
	return bare.length > 0 ? bare : text;
}

function sameTree(a: QueryNode, b: QueryNode): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** Read a user's query; an empty, operator-only, oversized or only-asking query gives `{ok: false, error}`. */
export function parseQuery(input: string): ParsedQuery {
	if (input.length > DEFAULTS.maxQueryChars) {
		return { ok: false, error: `the query is ${input.length} characters long; the limit is ${DEFAULTS.maxQueryChars}` };
	}
	let root: QueryNode | undefined;
	let reading: Reading = "keywords";
	let leftOut: string[] = [];
	if (readsAsQuestion(input)) {
		reading = "question";
		const q = questionTree(input);
		if (q.onlyAsking && q.root === undefined && q.leftOut.length === 0) return { ok: false, error: "the query has no words to search for" };
		if (q.onlyAsking) {
			const asked = [...q.leftOut, ...(q.root ? everyWord(q.root).map((n) => (n.kind === "word" ? bareWord(n.text) : "")) : [])];
			return {
				ok: false,
				error: `the query has only the words around a question (${asked.filter(Boolean).join(" ")}): say what the session was about, a word, a name or an error`,
			};
		}
		root = q.root;
		leftOut = q.leftOut;
	} else {
		const short = input.split(/\s+/).filter(Boolean).length <= SHORT_QUERY_WORDS;
		// A query of operators only ("OR", "NOT") searches for those words rather than failing.
		root = new Parser(lexKeywords(input, short)).parse() ?? new Parser(lexKeywords(input, short, false)).parse();
	}
	if (!root) return { ok: false, error: "the query has no words to search for" };
	const terms = countTerms(root);
	if (terms > DEFAULTS.maxQueryTerms)
		return { ok: false, error: `the query has ${terms} words and phrases; the limit is ${DEFAULTS.maxQueryTerms}` };
	const plain = combine("and", everyWord(root));
	const words = plain && !sameTree(plain, root) ? plain : undefined;
	return { ok: true, root, reading, ...(words ? { words } : {}), ...(leftOut.length > 0 ? { leftOut } : {}) };
}
