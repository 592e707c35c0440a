/**
 * Words as the unicode61 tokenizer sees them (letters and digits, case and diacritics folded), for building
 * query phrases and the vocabulary that substring search expands against.
 */

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{M}/gu;
const HEXISH = /^[0-9a-f]+$/;
const DIGIT = /\d/;

/** Fold case and diacritics the way `unicode61 remove_diacritics 2` does (close enough for matching). */
export function foldWord(word: string): string {
	const lower = word.toLowerCase();
	if (!NON_ASCII.test(lower)) return lower;
	return lower.normalize("NFD").replace(MARKS, "");
}

/** The folded words of a text, in order. */
export function wordsOf(text: string): string[] {
	const out: string[] = [];
	for (const m of text.matchAll(WORD)) out.push(foldWord(m[0]));
	return out;
}

/**
 * Whether a folded word is worth a vocabulary entry: long enough to contain a 3-character substring other
 * than itself, short enough to be an identifier, and not a number, hash or id (those bloat the vocabulary
 * and nobody searches a fragment of a hash).
 */
export function isVocabularyWord(word: string): boolean {
	if (word.length < 4 || word.length > 48) return false;
	if (!DIGIT.test(word)) return true;
	if (HEXISH.test(word)) return false;
	let digits = 0;
	for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) >= 48 && word.charCodeAt(i) <= 57) digits++;
	return digits * 2 < word.length;
}

const PLAIN = /^[a-z]+$/;

/** A folded word of ASCII letters only: the words that have English forms (`lock`, `locking`), unlike identifiers and numbers. */
export function isPlainWord(word: string): boolean {
	return PLAIN.test(word);
}

const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/**
 * The distinct tokens of a text as written (not folded), in first-seen order: what a table without positions
 * needs of it. The tokenizer reads them again, so a token is only ever split further, never joined.
 */
export function distinctTokens(text: string): string[] {
	const seen = new Set<string>();
	for (const m of text.matchAll(TOKEN)) seen.add(m[0]);
	return [...seen];
}
