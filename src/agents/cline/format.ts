/**
 * Cline's transcripts (CLI 3.x, `<data dir>/sessions/<id>/<id>.messages.json`, a sub-agent's
 * `agent_<agent id>.messages.json` beside it): one JSON document, `{version, agent, sessionId, origin, messages}`,
 * written again whole as the session goes on (`growth: "whole"`). Messages are Anthropic-shaped: `{id, role, content,
 * ts}` with `text`, `tool_use`, `tool_result` (a tool's results as `{query, result, error, success}`) and image
 * blocks, an answer's `modelInfo` and token counts (`metrics`). The person's prompt is wrapped in
 * `<user_input mode="…">`; a sub-agent's `origin` names the session that spawned it (`parentThreadId`). The project
 * folder is the one its system prompt names (`Working Directory: …`; its metadata beside it, `<id>.json`, names it
 * too, but is not read). Read into Pi's entry shape.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	minus,
	type PiBlock,
	piUsage,
	toolResultEntry,
	untestedVersion,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The newest Cline release whose files were read in tests; a newer one is named once in the sync report. */
const CLINE_TESTED_VERSION = "3.0.65";

/** The person's words inside the CLI's `<user_input mode="act">…</user_input>`. */
function unwrap(text: string): string {
	return /^<user_input\b[^>]*>([\s\S]*)<\/user_input>\s*$/.exec(text.trim())?.[1] ?? text;
}

/** A tool's result as text: a string, text blocks, or its `{query, result, error}` records. */
function resultText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return content === undefined ? "" : JSON.stringify(content);
	return content
		.map((raw) => {
			const r = asRecord(raw);
			if (!r) return typeof raw === "string" ? raw : "";
			if (typeof r.text === "string") return r.text;
			const result = typeof r.result === "string" ? r.result : r.result === undefined ? "" : JSON.stringify(r.result);
			const error = typeof r.error === "string" ? r.error : "";
			return [asString(r.query), result, error].filter((t) => t).join("\n");
		})
		.filter((t) => t.length > 0)
		.join("\n");
}

/** Cline's token counts in Pi's shape: its input tokens include those read from the cache. */
function clineUsage(message: Record<string, unknown>): Record<string, unknown> {
	const info = asRecord(message.modelInfo);
	const m = asRecord(message.metrics);
	const usage = m
		? {
				usage: piUsage({
					input: minus(m.inputTokens, m.cacheReadTokens),
					output: m.outputTokens,
					cacheRead: m.cacheReadTokens ?? 0,
					cacheWrite: m.cacheWriteTokens ?? 0,
					...(typeof m.cost === "number" && m.cost > 0 ? { costUsd: m.cost } : {}),
				}),
			}
		: {};
	return { model: info?.id, provider: info?.provider, ...usage };
}

/** The entries of one message, chained after `parentId`; undefined for one of no known shape. */
function messageEntries(
	message: Record<string, unknown>,
	i: number,
	parentId: string | null,
	state: ParseState,
): SessionEntry[] | undefined {
	const id = asString(message.id) ?? `message-${i}`;
	const timestamp = typeof message.ts === "number" ? new Date(message.ts).toISOString() : undefined;
	const place = { id, parentId, seq: state.nextSeq++, timestamp };
	const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
	const blocks = (Array.isArray(content) ? content : []).map(asRecord).filter((b): b is Record<string, unknown> => b !== undefined);
	const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text as string);
	if (message.role === "assistant") {
		const out: PiBlock[] = texts.filter((t) => t.length > 0).map((text) => ({ type: "text", text }));
		for (const b of blocks)
			if (b.type === "tool_use" && typeof b.name === "string")
				out.push({ type: "toolCall", id: asString(b.id), name: b.name, arguments: b.input });
		return [assistantEntry(place, out, clineUsage(message))];
	}
	if (message.role !== "user") return undefined;
	const results = blocks.filter((b) => b.type === "tool_result");
	if (results.length > 0) {
		const text = [...results.map((r) => resultText(r.content)), ...texts].join("\n");
		const error = results.some(
			(r) => r.is_error === true || (Array.isArray(r.content) && r.content.some((c) => asRecord(c)?.success === false)),
		);
		return [toolResultEntry(place, asString(results[0].name), text, error)];
	}
	const images = blocks.filter((b) => b.type === "image").length;
	return [userEntry(place, `${texts.map(unwrap).join("\n")}${images > 0 ? "\n[image]" : ""}`.trim())];
}

export const clineFormat: SessionFormat = {
	growth: "whole",
	parseLines(): ParsedChunk {
		// A transcript is one pretty-printed document (parseDocument): no line of it is a record of its own.
		return { entries: [], malformedLines: 0 };
	},
	parseDocument(bytes: Uint8Array, state: ParseState): ParsedChunk | undefined {
		const doc = parseJsonObject(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));
		if (!doc || !Array.isArray(doc.messages)) return { entries: [], malformedLines: 1 };
		const origin = asRecord(doc.origin);
		const sessionId = asString(doc.sessionId) ?? asString(origin?.sessionId);
		const parent = asString(origin?.parentThreadId);
		const first = asRecord(doc.messages[0]);
		const cwd = /^\d+\. Working Directory: (.+)$/m.exec(asString(doc.system_prompt) ?? "")?.[1]?.trim();
		if (sessionId && !state.header)
			state.header = {
				id: sessionId,
				version: 1,
				...(typeof first?.ts === "number" ? { timestamp: new Date(first.ts).toISOString() } : {}),
				...(cwd ? { cwd } : {}),
				...(parent ? { spawnedById: parent } : {}),
			};
		if (state.nextSeq === 0) state.nextSeq = 1;
		const version = asString(origin?.version);
		const entries: SessionEntry[] = [];
		let unknownRecords = 0;
		let last: string | null = null;
		for (const [i, raw] of doc.messages.entries()) {
			const message = asRecord(raw);
			const made: SessionEntry[] | undefined = message ? messageEntries(message, i, last, state) : undefined;
			if (!made) {
				unknownRecords++;
				continue;
			}
			entries.push(...made);
			last = made.at(-1)?.id ?? last;
		}
		return {
			entries,
			malformedLines: 0,
			...(unknownRecords > 0 ? { unknownRecords } : {}),
			...(untestedVersion(version, CLINE_TESTED_VERSION, undefined) ? { newVersion: `Cline ${version}` } : {}),
		};
	},
	sniff(first: Record<string, unknown>): boolean {
		// A whole transcript read as one document: its id, the agent that spoke and its messages.
		return typeof first.sessionId === "string" && typeof first.agent === "string" && Array.isArray(first.messages);
	},
};
