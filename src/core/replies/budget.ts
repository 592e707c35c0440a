/** A reply as JSON text within a character budget, cut where it loses least. */

import { DEFAULTS } from "../defaults.js";

/** Message texts are cut to this many characters first, halved until the reply fits or this reaches its floor. */
const FIRST_CUT = 4_000;
const LAST_CUT = 200;

/** A reply within its budget: the JSON text for a model, and the object it was made from (an MCP client's `structuredContent`). */
export interface BoundedReply {
	text: string;
	truncated: boolean;
	value: object;
}

/**
 * JSON text of a reply within `maxChars`: the longest message texts are cut first, then whole messages and
 * results are dropped from the end, and `contentTruncated: true` says so.
 */
export function boundedJson(reply: object, maxChars: number = DEFAULTS.replyMaxChars): BoundedReply {
	let text = JSON.stringify(reply, null, 1);
	if (text.length <= maxChars) return { text, truncated: false, value: reply };
	const copy = JSON.parse(text) as Record<string, unknown>;
	copy.contentTruncated = true;
	const texts: { holder: { text: string; textTruncated?: boolean } }[] = [];
	const visit = (v: unknown): void => {
		if (Array.isArray(v)) v.forEach(visit);
		else if (v && typeof v === "object") {
			const o = v as Record<string, unknown>;
			if (typeof o.text === "string" && typeof o.entryId === "string") texts.push({ holder: o as { text: string } });
			Object.values(o).forEach(visit);
		}
	};
	visit(copy);
	texts.sort((a, b) => b.holder.text.length - a.holder.text.length);
	for (let limit = FIRST_CUT; limit >= LAST_CUT && text.length > maxChars; limit = Math.floor(limit / 2)) {
		for (const { holder } of texts) {
			if (holder.text.length > limit) {
				holder.text = `${holder.text.slice(0, limit)}…`;
				holder.textTruncated = true;
			}
		}
		text = JSON.stringify(copy, null, 1);
	}
	for (const key of ["messages", "results", "sessions"]) {
		const list = copy[key];
		while (Array.isArray(list) && list.length > 1 && text.length > maxChars) {
			list.pop();
			text = JSON.stringify(copy, null, 1);
		}
	}
	// Last resort, for a reply whose one remaining result is still too long: the text is cut mid-JSON; the
	// value keeps the shortened object, which a client parses anyway.
	if (text.length > maxChars) text = JSON.stringify(copy).slice(0, maxChars);
	return { text, truncated: true, value: copy };
}
