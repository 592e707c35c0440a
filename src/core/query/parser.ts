/**
 * The query language people and models already type: words (ANDed), `OR`, `NOT` / `-word`, `"phrases"`,
 * `prefix*` and parentheses. Parsing never throws: stray operators become words, an open quote runs to the end.
 */

import { DEFAULTS } from "../defaults.js";

export type QueryNode =
	| { kind: "word"; text: string; prefix: boolean }
	| { kind: "phrase"; text: string; prefix: boolean }
	| { kind: "and"; items: QueryNode[] }
	| { kind: "or"; items: QueryNode[] }
	| { kind: "not"; item: QueryNode };

export type ParsedQuery = { ok: true; root: QueryNode } | { ok: false; error: string };

type Token =
	| { t: "word"; text: string; prefix: boolean }
	| { t: "phrase"; text: string; prefix: boolean }
	| { t: "(" }
	| { t: ")" }
	| { t: "OR" }
	| { t: "AND" }
	| { t: "NOT" }
	| { t: "-" };

function lex(input: string, operators = true): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < input.length) {
		const c = input[i];
		if (/\s/.test(c)) {
			i++;
		} else if (c === '"') {
			const end = input.indexOf('"', i + 1);
			const text = end < 0 ? input.slice(i + 1) : input.slice(i + 1, end);
			i = end < 0 ? input.length : end + 1;
			const prefix = input[i] === "*";
			if (prefix) i++;
			tokens.push({ t: "phrase", text, prefix });
		} else if (c === "(" || c === ")") {
			tokens.push({ t: c });
			i++;
		} else if (c === "-" && i + 1 < input.length && !/[\s-]/.test(input[i + 1]) && (i === 0 || /[\s(]/.test(input[i - 1]))) {
			tokens.push({ t: "-" });
			i++;
		} else {
			let j = i;
			while (j < input.length && !/[\s"()]/.test(input[j])) j++;
			let text = input.slice(i, j);
			i = j;
			// FTS5's NEAR(a b, N) is read as a plain group: people paste it, nobody means the word "near".
			if (operators && text === "NEAR" && input[j] === "(") continue;
			if (operators && (text === "OR" || text === "AND" || text === "NOT")) {
				tokens.push({ t: text });
				continue;
			}
			const prefix = text.endsWith("*");
			text = text.replace(/\*+$/, "");
			if (text.length > 0) tokens.push({ t: "word", text, prefix });
		}
	}
	return tokens;
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

/** Parse a user's query; an empty, operator-only or oversized query gives `{ok: false, error}`. */
export function parseQuery(input: string): ParsedQuery {
	if (input.length > DEFAULTS.maxQueryChars) {
		return { ok: false, error: `the query is ${input.length} characters long; the limit is ${DEFAULTS.maxQueryChars}` };
	}
	// A query of operators only ("OR", "NOT") searches for those words rather than failing.
	const root = new Parser(lex(input)).parse() ?? new Parser(lex(input, false)).parse();
	if (!root) return { ok: false, error: "the query has no words to search for" };
	const terms = countTerms(root);
	if (terms > DEFAULTS.maxQueryTerms)
		return { ok: false, error: `the query has ${terms} words and phrases; the limit is ${DEFAULTS.maxQueryTerms}` };
	return { ok: true, root };
}
