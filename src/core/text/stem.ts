/**
 * English word forms: the Porter stemmer (M. F. Porter, 1980), so that `locking`, `locks` and `locked` share
 * the stem of `lock`. Only plain lowercase ASCII words are stemmed; anything else is returned as it is.
 */

const PLAIN = /^[a-z]+$/;

function isConsonant(w: string, i: number): boolean {
	const c = w[i];
	if ("aeiou".includes(c)) return false;
	if (c === "y") return i === 0 ? true : !isConsonant(w, i - 1);
	return true;
}

/** Porter's m: the number of vowel-consonant sequences in `w`. */
function measure(w: string): number {
	let m = 0;
	let i = 0;
	const n = w.length;
	while (i < n && isConsonant(w, i)) i++;
	while (i < n) {
		while (i < n && !isConsonant(w, i)) i++;
		if (i >= n) break;
		m++;
		while (i < n && isConsonant(w, i)) i++;
	}
	return m;
}

function hasVowel(w: string): boolean {
	for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
	return false;
}

function doubleConsonant(w: string): boolean {
	const n = w.length;
	return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** consonant-vowel-consonant at the end, the last not w, x or y (`hop`, not `how`). */
function cvc(w: string): boolean {
	const n = w.length;
	if (n < 3) return false;
	if (!isConsonant(w, n - 1) || isConsonant(w, n - 2) || !isConsonant(w, n - 3)) return false;
	return !"wxy".includes(w[n - 1]);
}

/** Replace suffix `from` by `to` when the stem before it has measure > `min`; undefined when `from` does not end `w`. */
function swap(w: string, from: string, to: string, min: number): string | undefined {
	if (!w.endsWith(from)) return undefined;
	const stem = w.slice(0, w.length - from.length);
	return measure(stem) > min ? stem + to : w;
}

function firstRule(w: string, rules: readonly (readonly [string, string])[], min: number): string {
	for (const [from, to] of rules) {
		const out = swap(w, from, to, min);
		if (out !== undefined) return out;
	}
	return w;
}

const STEP2 = [
	["ational", "ate"],
	["tional", "tion"],
	["enci", "ence"],
	["anci", "ance"],
	["izer", "ize"],
	["bli", "ble"],
	["alli", "al"],
	["entli", "ent"],
	["eli", "e"],
	["ousli", "ous"],
	["ization", "ize"],
	["ation", "ate"],
	["ator", "ate"],
	["alism", "al"],
	["iveness", "ive"],
	["fulness", "ful"],
	["ousness", "ous"],
	["aliti", "al"],
	["iviti", "ive"],
	["biliti", "ble"],
	["logi", "log"],
] as const;
const STEP3 = [
	["icate", "ic"],
	["ative", ""],
	["alize", "al"],
	["iciti", "ic"],
	["ical", "ic"],
	["ful", ""],
	["ness", ""],
] as const;
const STEP4 = [
	"al",
	"ance",
	"ence",
	"er",
	"ic",
	"able",
	"ible",
	"ant",
	"ement",
	"ment",
	"ent",
	"ion",
	"ou",
	"ism",
	"ate",
	"iti",
	"ous",
	"ive",
	"ize",
];

/** The stem of a lowercase English word; a word of other characters, or shorter than 3, is returned unchanged. */
export function stem(word: string): string {
	if (word.length < 3 || !PLAIN.test(word)) return word;
	let w = word;
	// Step 1a: plurals.
	if (w.endsWith("sses")) w = w.slice(0, -2);
	else if (w.endsWith("ies")) w = w.slice(0, -2);
	else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
	// Step 1b: -ed, -ing.
	let tidy = false;
	if (w.endsWith("eed")) {
		if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
	} else if (w.endsWith("ed") && hasVowel(w.slice(0, -2))) {
		w = w.slice(0, -2);
		tidy = true;
	} else if (w.endsWith("ing") && hasVowel(w.slice(0, -3))) {
		w = w.slice(0, -3);
		tidy = true;
	}
	if (tidy) {
		if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) w += "e";
		else if (doubleConsonant(w) && !"lsz".includes(w[w.length - 1])) w = w.slice(0, -1);
		else if (measure(w) === 1 && cvc(w)) w += "e";
	}
	// Step 1c: y → i.
	if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
	w = firstRule(w, STEP2, 0);
	w = firstRule(w, STEP3, 0);
	// Step 4: drop a suffix from a long enough stem.
	for (const suffix of STEP4) {
		if (!w.endsWith(suffix)) continue;
		const base = w.slice(0, w.length - suffix.length);
		if (measure(base) > 1 && (suffix !== "ion" || base.endsWith("s") || base.endsWith("t"))) w = base;
		break;
	}
	// Step 5: a final e, a double l.
	if (w.endsWith("e")) {
		const base = w.slice(0, -1);
		const m = measure(base);
		if (m > 1 || (m === 1 && !cvc(base))) w = base;
	}
	if (measure(w) > 1 && doubleConsonant(w) && w.endsWith("l")) w = w.slice(0, -1);
	return w;
}
