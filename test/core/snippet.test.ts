/**
 * A snippet of a long text is cut from a region around its first match, not from the whole text flattened:
 * it must be the snippet the whole text gives.
 */

import { describe, expect, it } from "vitest";
import { flatten } from "../../src/core/text/display.js";
import { makeSnippet } from "../../src/core/text/snippet.js";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The snippet as it was cut from the whole text flattened (before regions), with the same marks and edges. */
function wholeTextSnippet(text: string, terms: string[], size = 220): string {
	const flat = flatten(text).trim();
	const usable = [...new Set(terms.filter((t) => t.length > 0))].sort((a, b) => b.length - a.length);
	const source = usable.map((t) =>
		/^[\p{L}\p{N}]+$/u.test(t) ? `(?<![\\p{L}\\p{N}])${escapeRegExp(t)}(?![\\p{L}\\p{N}])` : escapeRegExp(t),
	);
	let first: number | undefined;
	for (const term of source) {
		const m = new RegExp(term, "iu").exec(flat);
		if (m) {
			first = m.index;
			break;
		}
	}
	let start = first !== undefined ? Math.max(0, first - Math.floor(size / 3)) : 0;
	const before = flat.lastIndexOf(" ", start);
	if (start > 0 && before >= 0 && start - before < 20) start = before + 1;
	let end = Math.min(flat.length, start + size);
	const after = flat.indexOf(" ", end);
	if (end < flat.length && after >= 0 && after - end < 20) end = after;
	const window = flat.slice(start, end).replace(new RegExp(source.join("|"), "giu"), (m) => `«${m}»`);
	return (start > 0 ? "…" : "") + window + (end < flat.length ? "…" : "");
}

/** Deterministic words and whitespace runs (newlines, tabs, indents), as tool output has them. */
function longText(seed: number, words: number, planted: Record<number, string>): string {
	let x = seed;
	const next = () => {
		x = (x * 1103515245 + 12345) % 2147483648;
		return x;
	};
	const gaps = [" ", " ", " ", "\n", "\n\n    ", "\t", "  "];
	const out: string[] = [];
	for (let i = 0; i < words; i++) {
		out.push(planted[i] ?? `w${(next() % 5000).toString(36)}`, gaps[next() % gaps.length]);
	}
	return out.join("");
}

describe("a snippet of a long text", () => {
	it("is the one the whole text gives, wherever the match lies", () => {
		for (const [seed, at] of [
			[1, 10],
			[2, 3000],
			[3, 7990],
			[4, 4000],
		] as const) {
			const text = longText(seed, 8000, { [at]: "zanzibarRetryPolicy", [at + 40]: "retry" });
			expect(text.length).toBeGreaterThan(20_000);
			const terms = ["zanzibarRetryPolicy", "retry"];
			const got = makeSnippet(text, terms);
			expect(got).toBe(wholeTextSnippet(text, terms));
			expect(got).toContain("«zanzibarRetryPolicy»");
		}
	});

	it("finds a phrase across a run of whitespace, as the flattened text has it", () => {
		const text = longText(5, 8000, { 5000: "dead\n\n\t letter" });
		const got = makeSnippet(text, ["dead letter"]);
		expect(got).toContain("«dead letter»");
		expect(got).toBe(wholeTextSnippet(text, ["dead letter"]));
		expect(got.startsWith("…") && got.endsWith("…")).toBe(true);
	});

	it("centres on the longest term even when a shorter one comes first", () => {
		const text = longText(6, 8000, { 100: "cache", 6000: "cacheInvalidation" });
		const got = makeSnippet(text, ["cache", "cacheInvalidation"]);
		expect(got).toBe(wholeTextSnippet(text, ["cache", "cacheInvalidation"]));
		expect(got).toContain("«cacheInvalidation»");
	});

	it("without a match, is the text's start, cut with an ellipsis", () => {
		const text = longText(7, 8000, {});
		const got = makeSnippet(text, ["nowhere"]);
		expect(got).toBe(wholeTextSnippet(text, ["nowhere"]));
		expect(got.endsWith("…")).toBe(true);
		expect(got.startsWith("…")).toBe(false);
	});
});
