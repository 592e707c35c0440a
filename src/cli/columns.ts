/**
 * Text laid out in a terminal's columns by display width, not characters: a CJK character or an emoji takes two
 * columns (string-width, which follows Unicode's East Asian Width and emoji data), so a table of titles stays aligned.
 */

import { homedir } from "node:os";
import stringWidth from "string-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** `text` cut to at most `max` columns, at a word's end when one is near, an ellipsis where it was cut. */
export function fitColumns(text: string, max: number): string {
	if (stringWidth(text) <= max) return text;
	let out = "";
	let width = 0;
	for (const { segment } of segmenter.segment(text)) {
		const w = stringWidth(segment);
		if (width + w > max - 1) break;
		out += segment;
		width += w;
	}
	// Back to the last space when it keeps most of the line (a title cut mid-word reads as a typo).
	const space = out.lastIndexOf(" ");
	if (space > out.length * 0.6) out = out.slice(0, space);
	return `${out.trimEnd()}…`;
}

/** `text` fitted to `width` columns and padded with spaces to it. */
export function column(text: string, width: number): string {
	const fitted = fitColumns(text, width);
	return fitted + " ".repeat(Math.max(0, width - stringWidth(fitted)));
}

/** A folder for a listing: the home folder as `~`, and a long one cut in its middle to its last parts. */
export function shortPath(path: string | undefined, max = 40, home = homedir()): string {
	if (!path) return "—";
	const tilde = home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
	if (stringWidth(tilde) <= max) return tilde;
	const parts = tilde.split("/");
	let tail = parts.pop() ?? "";
	while (parts.length > 0 && stringWidth(`…/${parts.at(-1)}/${tail}`) <= max) tail = `${parts.pop()}/${tail}`;
	return fitColumns(`…/${tail}`, max);
}
