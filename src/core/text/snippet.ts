/** Snippets: a window of an entry's text around the first match, with every match marked. */

import { DEFAULTS } from "../defaults.js";
import { flatten } from "./display.js";

const WORD_ONLY = /^[\p{L}\p{N}]+$/u;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Raw characters kept on each side of the first match before flattening, in multiples of the snippet's size. */
const REGION = { before: 2, after: 3 };

/**
 * The part of `text` a snippet can come from: the whole text when it is short, else a region around the first
 * match of the longest term (`matchers`, whose spaces match any whitespace run, as they match one space after
 * flattening). Entries reach tens of kilobytes and a reply cuts a snippet from each hit: flattening all of each
 * cost more than the rest of the snippet.
 */
function regionOf(text: string, matchers: readonly RegExp[], size: number): { text: string; start: number; end: number } {
	const whole = { text, start: 0, end: text.length };
	if (text.length <= size * (REGION.before + REGION.after + 1)) return whole;
	for (const m of matchers) {
		const found = m.exec(text);
		if (!found) continue;
		const start = Math.max(0, found.index - size * REGION.before);
		const end = Math.min(text.length, found.index + found[0].length + size * REGION.after);
		return { text: text.slice(start, end), start, end };
	}
	return { text: text.slice(0, size * (REGION.before + REGION.after)), start: 0, end: size * (REGION.before + REGION.after) };
}

/**
 * Cut `size` characters of `text` around the earliest occurrence of any term and mark every occurrence
 * inside the window. Whitespace runs shrink to one space. Without a match, the start of the text.
 */
export function makeSnippet(
	text: string,
	terms: readonly string[],
	size: number = DEFAULTS.snippetChars,
	marks: { open: string; close: string } = { open: DEFAULTS.markOpen, close: DEFAULTS.markClose },
): string {
	const usable = [...new Set(terms.filter((t) => t.length > 0))].sort((a, b) => b.length - a.length).slice(0, 64);
	// Whole words are marked only as whole words ("sql" not inside "SQLITE"); CJK and phrases anywhere.
	const source = usable.map((t) =>
		WORD_ONLY.test(t) && !HAS_CJK.test(t) ? `(?<![\\p{L}\\p{N}])${escapeRegExp(t)}(?![\\p{L}\\p{N}])` : escapeRegExp(t),
	);
	const region = regionOf(
		text,
		source.map((term) => new RegExp(term.replace(/ /g, "\\s+"), "iu")),
		size,
	);
	const flatRegion = flatten(region.text);
	const flat = region.start === 0 ? flatRegion.trimStart() : flatRegion;
	const cutBefore = region.start > 0;
	const cutAfter = region.end < text.length;
	const body = cutAfter ? flat : flat.trimEnd();
	const pattern = usable.length > 0 ? new RegExp(source.join("|"), "giu") : undefined;
	// Centre on the longest term found (the most specific), not on the first short word.
	let first: { index: number } | null = null;
	for (const term of source) {
		const m = new RegExp(term, "iu").exec(body);
		if (m) {
			first = { index: m.index };
			break;
		}
	}
	let start = first ? Math.max(0, first.index - Math.floor(size / 3)) : 0;
	// Snap both edges to a space when one is near, so words are not cut in half.
	const before = body.lastIndexOf(" ", start);
	if (start > 0 && before >= 0 && start - before < 20) start = before + 1;
	let end = Math.min(body.length, start + size);
	const after = body.indexOf(" ", end);
	if (end < body.length && after >= 0 && after - end < 20) end = after;
	let window = body.slice(start, end);
	if (pattern) window = window.replace(pattern, (m) => marks.open + m + marks.close);
	return (start > 0 || cutBefore ? "…" : "") + window + (end < body.length || cutAfter ? "…" : "");
}
