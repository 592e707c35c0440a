/**
 * An OpenCode session as one document in the shape `opencode export` prints (`{info, messages: [{info, parts}]}`),
 * whichever store it came from (the database or the JSON tree before 1.2.0). A row that is not a JSON object
 * stays in its place as `null` (the parser counts it malformed); an image or file inlined as a data URL keeps
 * only its type, and any one string is cut at `DEFAULTS.spilledOutputMaxBytes`, so a session's document stays
 * within what its text can add to the index.
 */

import { DEFAULTS } from "../../../core/index.js";
import type { OpencodeFork } from "./forks.js";

export interface OpencodeMessage {
	info: Record<string, unknown> | null;
	parts: (Record<string, unknown> | null)[];
}

export interface OpencodeDocument {
	info: Record<string, unknown>;
	messages: OpencodeMessage[];
	/** lookback's own: the session a fork copies and what its copies copy (forks.ts); `opencode import` is given none. */
	forkOf?: OpencodeFork;
}

function bounded(value: unknown, depth: number): unknown {
	if (typeof value === "string")
		return value.length > DEFAULTS.spilledOutputMaxBytes ? value.slice(0, DEFAULTS.spilledOutputMaxBytes) : value;
	if (value === null || typeof value !== "object" || depth > 32) return value;
	if (Array.isArray(value)) return value.map((v) => bounded(v, depth + 1));
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) out[k] = bounded(v, depth + 1);
	return out;
}

/** A part as it is rendered: a data URL reduced to its type, every string within the bound. */
export function boundedPart(part: Record<string, unknown>): Record<string, unknown> {
	const url = part.url;
	const trimmed = typeof url === "string" && url.startsWith("data:") ? { ...part, url: /^data:[^;,]*/.exec(url)?.[0] } : part;
	return bounded(trimmed, 0) as Record<string, unknown>;
}

/** The document's bytes, as the parser reads a file. */
export function documentBytes(doc: OpencodeDocument): Uint8Array {
	return new TextEncoder().encode(JSON.stringify(doc));
}

/** What rendering left out of a document: inlined files kept as their type only, and strings cut at the bound. */
export interface RenderLosses {
	files: number;
	cutTexts: number;
}

/** Count what `boundedPart` took out of a document's parts (a string as long as the bound was cut there). */
export function renderLosses(doc: OpencodeDocument): RenderLosses {
	const losses: RenderLosses = { files: 0, cutTexts: 0 };
	const visit = (value: unknown, depth: number): void => {
		if (typeof value === "string") {
			if (value.length === DEFAULTS.spilledOutputMaxBytes) losses.cutTexts++;
		} else if (value !== null && typeof value === "object" && depth <= 32) for (const v of Object.values(value)) visit(v, depth + 1);
	};
	for (const message of doc.messages)
		for (const part of message.parts) {
			if (!part) continue;
			if (typeof part.url === "string" && /^data:[^,]*$/.test(part.url)) losses.files++;
			visit(part, 0);
		}
	return losses;
}
