/**
 * Chinese, Japanese and Korean text. unicode61 keeps a run of CJK characters as one token, so runs are
 * rewritten as overlapping bigrams (plus the run's last character) before indexing, and query words the same way.
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function hasCjk(text: string): boolean {
	return HAS_CJK.test(text);
}

/** Split a string into code points (CJK of the supplementary planes are two UTF-16 units). */
function chars(run: string): string[] {
	return Array.from(run);
}

/**
 * Index form: every CJK run becomes ` b1 b2 … last ` — its overlapping bigrams and its final character,
 * so that a 1-character query (`"锁"*`) and a 2-character query (`"错误"`) are exact, and longer ones are
 * phrases of bigrams. `修复错误` → ` 修复 复错 错误 误 `.
 */
export function cjkIndexForm(text: string): string {
	if (!HAS_CJK.test(text)) return text;
	return text.replace(CJK_RUN, (run) => {
		const cs = chars(run);
		const grams: string[] = [];
		for (let i = 0; i + 1 < cs.length; i++) grams.push(cs[i] + cs[i + 1]);
		grams.push(cs[cs.length - 1]);
		return ` ${grams.join(" ")} `;
	});
}

/** One piece of a query word: plain text to tokenize, or a CJK run. */
export interface QueryPiece {
	cjk: boolean;
	text: string;
}

/** Split a query word into CJK runs and the text between them. */
export function splitCjk(text: string): QueryPiece[] {
	const pieces: QueryPiece[] = [];
	let last = 0;
	for (const m of text.matchAll(CJK_RUN)) {
		const at = m.index ?? 0;
		if (at > last) pieces.push({ cjk: false, text: text.slice(last, at) });
		pieces.push({ cjk: true, text: m[0] });
		last = at + m[0].length;
	}
	if (last < text.length) pieces.push({ cjk: false, text: text.slice(last) });
	return pieces;
}

/**
 * Query form of one CJK run: its bigrams (a phrase that must appear in order). A single character has no
 * bigram: it is answered by the prefix query on the character (returned as `prefix: true`).
 */
export function cjkQueryGrams(run: string): { grams: string[]; prefix: boolean } {
	const cs = chars(run);
	if (cs.length === 1) return { grams: cs, prefix: true };
	const grams: string[] = [];
	for (let i = 0; i + 1 < cs.length; i++) grams.push(cs[i] + cs[i + 1]);
	return { grams, prefix: false };
}
