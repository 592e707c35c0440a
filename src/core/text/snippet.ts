/** Snippets: a window of an entry's text around the first match, with every match marked. */

import { DEFAULTS } from "../defaults.js";
import { flatten } from "./display.js";

const WORD_ONLY = /^[\p{L}\p{N}]+$/u;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function escapeRegExp(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
	const flat = flatten(text).trim();
	const usable = [...new Set(terms.filter((t) => t.length > 0))].sort((a, b) => b.length - a.length).slice(0, 64);
	// Whole words are marked only as whole words ("sql" not inside "SQLITE"); CJK and phrases anywhere.
	const source = usable.map((t) =>
		WORD_ONLY.test(t) && !HAS_CJK.test(t) ? `(?<![\\p{L}\\p{N}])${escapeRegExp(t)}(?![\\p{L}\\p{N}])` : escapeRegExp(t),
	);
	const pattern = usable.length > 0 ? new RegExp(source.join("|"), "giu") : undefined;
	// Centre on the longest term found (the most specific), not on the first short word.
	let first: { index: number } | null = null;
	for (const term of source) {
		const m = new RegExp(term, "iu").exec(flat);
		if (m) {
			first = { index: m.index };
			break;
		}
	}
	let start = first ? Math.max(0, first.index - Math.floor(size / 3)) : 0;
	// Snap both edges to a space when one is near, so words are not cut in half.
	const before = flat.lastIndexOf(" ", start);
	if (start > 0 && before >= 0 && start - before < 20) start = before + 1;
	let end = Math.min(flat.length, start + size);
	const after = flat.indexOf(" ", end);
	if (end < flat.length && after >= 0 && after - end < 20) end = after;
	let window = flat.slice(start, end);
	if (pattern) window = window.replace(pattern, (m) => marks.open + m + marks.close);
	return (start > 0 ? "…" : "") + window + (end < flat.length ? "…" : "");
}
