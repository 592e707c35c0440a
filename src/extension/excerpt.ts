/**
 * A found session as text for the conversation: where it comes from, then the messages around the hit. It
 * leaves lookback for the editor and the model, so secrets are replaced by `[REDACTED:kind]` markers (each
 * message redacted whole, before it is cut). Callers load the rules first (`loadRedaction`).
 */

import { flatten, redactText, shortTime, type ToolMessage } from "../core/index.js";

export interface ExcerptSource {
	title: string;
	project: string;
	time?: string;
	resumeHint: string;
}

/** Characters of one message in an excerpt: enough to carry the point, short enough for an editor. */
const MESSAGE_CHARS = 400;

export function excerptText(source: ExcerptSource, messages: readonly ToolMessage[], fallback = ""): string {
	const lines = messages.map((m) => `[${m.role}] ${flatten(redactText(m.text), MESSAGE_CHARS)}`);
	const body = lines.length > 0 ? lines.join("\n") : redactText(fallback);
	return redactText(
		`From an earlier session "${source.title}" (${source.project}, ${shortTime(source.time)}; ${source.resumeHint}):\n${body}`,
	);
}
