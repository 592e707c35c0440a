/**
 * Aider's chat history, `.aider.chat.history.md`: Markdown that every run appends to, read from its documented
 * shape as public readers of it read it — Aider's own transcript format (Aider-AI/aider `website/share/index.md`:
 * `#### ` lines are what the person wrote, `> ` lines Aider's own output, the rest the model's answer), wesm/agentsview
 * `internal/parser/aider_test.go` (runs begin `# aider chat started at <YYYY-MM-DD HH:MM:SS>`, `#### ` only ever
 * marks the person's input, no time per message) — never from files the real CLI wrote here. Aider's own output
 * (`> Aider v0.86.1`, `> Main model: …`, `> Applied edit to …`, `> Tokens: 2.3k sent, 150 received. Cost: $0.01
 * message, …`) is meta, and gives the model and each answer's usage. The file is read whole (`growth:
 * "whole"`): an answer grows line by line, so a chunk's last entry is never known to be complete. One file is one
 * session, its runs one after another; a run's start is an entry of its own.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { assistantEntry, linkEntry, metaEntry, piUsage, userEntry } from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

const RUN_START = /^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$/;

/** "2.3k" → 2300, "150" → 150. */
function tokenCount(text: string): number {
	const n = Number.parseFloat(text);
	return Math.round(text.endsWith("k") ? n * 1000 : text.endsWith("M") ? n * 1e6 : n);
}

/** The usage a `> Tokens: …` line reports for the answer before it. */
function tokensLine(line: string): Record<string, unknown> | undefined {
	const m = /^> Tokens: (.+)$/.exec(line);
	if (!m) return undefined;
	const count = (label: string) => {
		const hit = new RegExp(`([\\d.]+[kM]?) ${label}`).exec(m[1]);
		return hit ? tokenCount(hit[1]) : undefined;
	};
	const cost = /Cost: \$([\d.]+) message/.exec(m[1]);
	const cacheRead = count("cache hit") ?? 0;
	const cacheWrite = count("cache write") ?? 0;
	const sent = count("sent");
	// Aider's "sent" counts the whole prompt, the cache's part included.
	return piUsage({
		input: sent === undefined ? undefined : Math.max(0, sent - cacheRead - cacheWrite),
		output: count("received"),
		cacheRead,
		cacheWrite,
		...(cost ? { costUsd: Number.parseFloat(cost[1]) } : {}),
	});
}

/** The local time a run started, as Aider wrote it (no zone: read as UTC, as agentsview does). */
function runTime(stamp: string): string {
	return `${stamp.replace(" ", "T")}.000Z`;
}

type Block = "user" | "tool" | "answer";

function readHistory(lines: readonly string[], state: ParseState): ParsedChunk {
	const entries: SessionEntry[] = [];
	let run = 0;
	let runAt: string | undefined;
	let model: string | undefined;
	let block: Block | undefined;
	let text: string[] = [];
	let n = 0;
	if (state.nextSeq === 0) state.nextSeq = 1;
	const place = () => ({ id: `r${run}.${n++}`, parentId: entries.at(-1)?.id ?? null, seq: state.nextSeq++, timestamp: runAt });
	const lastAnswer = () => {
		const last = entries.at(-1);
		return last && (last.raw.message as { role?: string } | undefined)?.role === "assistant" ? last : undefined;
	};
	const close = () => {
		const body = text.join("\n").trim();
		text = [];
		if (!block || !body) return;
		if (block === "user") entries.push(userEntry(place(), body));
		else if (block === "tool") entries.push(metaEntry(place(), body));
		else entries.push(assistantEntry(place(), [{ type: "text", text: body }], model ? { model } : {}));
	};
	for (const line of lines) {
		const start = RUN_START.exec(line);
		if (start) {
			close();
			block = undefined;
			run++;
			n = 0;
			runAt = runTime(start[1]);
			state.header ??= { id: `aider-${start[1].replace(/\D/g, "")}`, version: 1, timestamp: runAt };
			entries.push(linkEntry(place(), "run_start"));
			continue;
		}
		const kind: Block | undefined =
			line.startsWith("#### ") || line === "####" ? "user" : line.startsWith("> ") || line === ">" ? "tool" : undefined;
		if (kind === "tool") {
			const usage = tokensLine(line);
			if (usage && block === "answer") {
				close();
				block = undefined;
			}
			const answer = lastAnswer();
			if (usage && answer) {
				(answer.raw.message as Record<string, unknown>).usage = usage;
				continue;
			}
			model = /^> (?:Main model|Model): (\S+)/.exec(line)?.[1] ?? model;
		}
		// A blank line belongs to the block it is in; any other line of prose after a prompt or Aider's output is the answer.
		const next = kind ?? (line.trim() === "" ? block : "answer");
		if (next !== block) {
			close();
			block = next;
		}
		text.push(kind === "user" ? line.slice(5) : kind === "tool" ? line.slice(2) : line);
	}
	close();
	return { entries, malformedLines: 0 };
}

export const aiderFormat: SessionFormat = {
	growth: "whole",
	parseDocument(bytes, state) {
		return readHistory(
			new TextDecoder()
				.decode(bytes)
				.replace(/^\uFEFF/, "")
				.split(/\r?\n/),
			state,
		);
	},
	parseLines: (lines, state) => readHistory(lines, state),
};
