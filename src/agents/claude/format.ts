/**
 * Claude Code's transcripts (`~/.claude/projects/<cwd>/<uuid>.jsonl`, sub-agents in `<uuid>/subagents/`):
 * one JSON record a line, a tree through `uuid` → `parentUuid`, several lines for one API message (sharing
 * `message.id`), and two thirds of a modern file bookkeeping that is skipped. Read into Pi's entry shape.
 */

import { SIDE_ENTRY_TYPE } from "../../core/parse/branch.js";
import type { LineOffsets, SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	compactionEntry,
	linkEntry,
	metaEntry,
	type PiBlock,
	piUsage,
	plainText,
	summaryEntry,
	toolResultEntry,
	untestedVersion,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The newest Claude Code release whose files were read in tests; a newer one is named once in the sync report. */
const CLAUDE_TESTED_VERSION = "2.1.332";

/** Records that carry nothing to search: progress and hook noise, attachments, snapshots, queued prompts, modes. */
const BOOKKEEPING = new Set([
	"progress",
	"attachment",
	"file-history-snapshot",
	"queue-operation",
	"last-prompt",
	"mode",
	"permission-mode",
	"pr-link",
	"agent-setting",
	"tag",
	// 2.1.3xx: request copies and counters
	"atis-latch",
	"api-request",
	"api-request-shape",
	"api-request-blob",
	"tools-used",
	"cost-state",
]);

/** Title records, by precedence: a name the person gave beats an agent's name, then the AI's title, then an old summary line. */
const TITLE_RANK = { "custom-title": 4, "agent-name": 3, "ai-title": 2, summary: 1 } as const;

/** What one parse of a Claude file carries from chunk to chunk. */
interface ClaudeState {
	/** uuid of a line not kept as an entry (or merged into another) → the entry that stands for it. */
	alias: Map<string, string | null>;
	/** The entry of each API message id (later lines of the same message are merged into it). */
	byMessageId: Map<string, SessionEntry>;
	/** Tool name by tool_use id, to name the tool of a result. */
	toolNames: Map<string, string>;
	/** Every uuid seen: a `summary` line names a session only when its `leafUuid` is one of them. */
	uuids: Set<string>;
	titleRank: number;
	pendingSummary?: { text: string; leaf: string };
	/** Skipped lines after the last entry made: the next chunk (a grown file) may hang on them. */
	trailing: { uuid: string; parent: string | null; timestamp?: string }[];
	newestVersion?: string;
	/** Task calls (1.0.x) no inline sidechain has claimed yet, by their prompt: the entries holding them, in file order. */
	taskCalls: Map<string, string[]>;
}

function claudeState(state: ParseState): ClaudeState {
	state.format ??= {
		alias: new Map(),
		byMessageId: new Map(),
		toolNames: new Map(),
		uuids: new Set(),
		titleRank: 0,
		trailing: [],
		taskCalls: new Map(),
	} satisfies ClaudeState;
	return state.format as ClaudeState;
}

/** The entry a parent uuid stands for, through skipped and merged lines. */
function resolveParent(cs: ClaudeState, parent: string | null): string | null {
	let at = parent;
	for (let hops = 0; at !== null && cs.alias.has(at) && hops < 10_000; hops++) at = cs.alias.get(at) ?? null;
	return at;
}

function toolResultText(block: Record<string, unknown>): string {
	const content = block.content;
	if (typeof content === "string") return content;
	const text = plainText(content);
	const images = Array.isArray(content) ? content.filter((b) => asRecord(b)?.type === "image").length : 0;
	return images > 0 ? `${text}\n[image]`.trim() : text;
}

export const claudeFormat: SessionFormat = {
	growth: "append",
	sharedIds: true,
	sideConversations: true,
	parseLines(lines: string[], state: ParseState, at?: LineOffsets): ParsedChunk {
		const cs = claudeState(state);
		if (state.nextSeq === 0) state.nextSeq = 1;
		const entries: SessionEntry[] = [];
		let malformedLines = 0;
		let unknownRecords = 0;
		let title: string | undefined;
		let newVersion: string | undefined;
		const setTitle = (kind: keyof typeof TITLE_RANK, text: string | undefined) => {
			if (!text || TITLE_RANK[kind] < cs.titleRank) return;
			cs.titleRank = TITLE_RANK[kind];
			title = text;
		};
		for (const [i, line] of lines.entries()) {
			if (line.trim().length === 0) continue;
			const obj = parseJsonObject(line);
			if (!obj || typeof obj.type !== "string") {
				malformedLines++;
				continue;
			}
			const range = at ? { start: at.base + at.offsets[i], end: at.base + (at.offsets[i + 1] ?? at.consumedBytes) } : undefined;
			const version = asString(obj.version);
			if (untestedVersion(version, CLAUDE_TESTED_VERSION, cs.newestVersion)) {
				cs.newestVersion = version;
				newVersion = `Claude Code ${version}`;
			}
			const side = sidechainStart(obj, state, cs);
			if (side) entries.push(side);
			const made = lineEntries(obj, state, cs);
			if (made === "unknown") unknownRecords++;
			else if (made === "title") {
				const kind = obj.type as keyof typeof TITLE_RANK;
				if (kind === "summary") {
					const leaf = asString(obj.leafUuid);
					const text = asString(obj.summary);
					if (leaf && text) {
						if (cs.uuids.has(leaf)) setTitle("summary", text);
						else cs.pendingSummary = { text, leaf };
					}
				} else setTitle(kind, asString(obj.customTitle) ?? asString(obj.aiTitle) ?? asString(obj.agentName) ?? asString(obj.title));
			} else if (made) {
				for (const e of made.entries) {
					if (range && made.entries.length === 1 && !made.merged) e.range = range;
					entries.push(e);
				}
				if (made.merged) made.merged.range = undefined;
			}
		}
		// Skipped lines at the end of what was read are kept as links, so that a later chunk can hang on them.
		for (const t of cs.trailing.splice(0)) {
			cs.alias.delete(t.uuid);
			entries.push(linkEntry({ id: t.uuid, parentId: resolveParent(cs, t.parent), seq: state.nextSeq++, timestamp: t.timestamp }, "link"));
		}
		// An old summary line comes before the entries it names: it counts once its leaf is seen in the same file.
		if (cs.pendingSummary && cs.uuids.has(cs.pendingSummary.leaf)) {
			setTitle("summary", cs.pendingSummary.text);
			cs.pendingSummary = undefined;
		}
		return {
			entries,
			malformedLines,
			...(unknownRecords > 0 ? { unknownRecords } : {}),
			...(newVersion ? { newVersion } : {}),
			...(title ? { title } : {}),
		};
	},
	sniff(first: Record<string, unknown>): boolean {
		// Every Claude Code line has a type, and most name their session: the first is a prompt, a queued prompt or a mode
		// line; before 2.1 often a file history snapshot (which names only its message), in 1.0.x a summary. Gemini CLI's
		// first line names a session too, but has no type (gemini/format.ts's sniff).
		if (first.type === "summary") return typeof first.leafUuid === "string";
		if (first.type === "file-history-snapshot") return typeof first.messageId === "string" && asRecord(first.snapshot) !== undefined;
		// Qwen Code's lines look alike but hold Gemini's `parts` and say how they came to be (qwen/format.ts's sniff).
		if (first.provenance !== undefined || Array.isArray(asRecord(first.message)?.parts)) return false;
		return typeof first.type === "string" && typeof first.sessionId === "string";
	},
	entriesOfLine(line: string): SessionEntry[] {
		const obj = parseJsonObject(line);
		if (!obj) return [];
		const state: ParseState = { nextSeq: 1, lastId: null };
		const made = lineEntries(obj, state, claudeState(state));
		return typeof made === "object" && made ? made.entries : [];
	},
};

type LineResult = { entries: SessionEntry[]; merged?: SessionEntry } | "title" | "unknown" | undefined;

/** The entries one record makes: none for bookkeeping, "title" for a title record, "unknown" for a type never seen. */
function lineEntries(obj: Record<string, unknown>, state: ParseState, cs: ClaudeState): LineResult {
	const type = obj.type as string;
	if (type in TITLE_RANK) return "title";
	const uuid = asString(obj.uuid);
	const parent = asString(obj.parentUuid) ?? null;
	if (uuid) cs.uuids.add(uuid);
	const known = BOOKKEEPING.has(type) || type === "user" || type === "assistant" || type === "system";
	if (!uuid || !known || BOOKKEEPING.has(type)) {
		// A skipped line may still be a parent: its children hang on its own parent instead.
		if (uuid) {
			cs.alias.set(uuid, resolveParent(cs, parent));
			cs.trailing.push({ uuid, parent, timestamp: asString(obj.timestamp) });
		}
		return known && !(type === "user" || type === "assistant") ? undefined : "unknown";
	}
	cs.trailing = [];
	readHeader(obj, state);
	const timestamp = asString(obj.timestamp);
	const place = () => ({ id: uuid, parentId: resolveParent(cs, parent), seq: state.nextSeq++, timestamp });
	if (type === "system") {
		if (obj.subtype === "compact_boundary") {
			// A compaction starts a new root; the tree goes on through the leaf it continues from.
			const logical = asString(obj.logicalParentUuid) ?? null;
			return { entries: [compactionEntry({ ...place(), parentId: resolveParent(cs, logical ?? parent) }, "", uuid)] };
		}
		const text = asString(obj.content);
		if (obj.subtype === "local_command" && text) return { entries: [metaEntry(place(), text)] };
		if (obj.subtype === "api_error" || obj.level === "error") {
			const error = text ?? plainText(asRecord(obj.error)?.message ?? obj.error);
			if (error) return { entries: [metaEntry(place(), error)] };
		}
		// turn_duration, stop hooks and the like: nothing to search, but a later line may name it as parent.
		return { entries: [linkEntry(place(), "system")] };
	}
	const message = asRecord(obj.message);
	if (!message) return { entries: [linkEntry(place(), type)] };
	if (type === "assistant") return assistantLine(message, obj, uuid, place, cs);
	return userLine(obj, message, place, cs);
}

/**
 * Anthropic's usage in Pi's shape: `input_tokens` is already the prompt outside the cache. Claude Code records no
 * cost (releases before 1.0 wrote `costUSD` on the line, taken as recorded). Its own notices (model `<synthetic>`) used no model.
 */
function claudeUsage(message: Record<string, unknown>, line: Record<string, unknown>): Record<string, unknown> {
	if (message.model === "<synthetic>") return {};
	const u = asRecord(message.usage);
	const costUsd = typeof line.costUSD === "number" ? line.costUSD : undefined;
	if (!u && costUsd === undefined) return { model: message.model, provider: "anthropic" };
	const usage = piUsage({
		input: u?.input_tokens,
		output: u?.output_tokens,
		cacheRead: u?.cache_read_input_tokens,
		cacheWrite: u?.cache_creation_input_tokens,
		costUsd,
	});
	return { model: message.model, provider: "anthropic", usage };
}

function assistantLine(
	message: Record<string, unknown>,
	line: Record<string, unknown>,
	uuid: string,
	place: () => Parameters<typeof assistantEntry>[0],
	cs: ClaudeState,
): LineResult {
	const blocks: PiBlock[] = [];
	const prompts: string[] = [];
	const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
	for (const raw of Array.isArray(content) ? content : []) {
		const block = asRecord(raw);
		if (!block) continue;
		if (block.type === "text" && typeof block.text === "string") blocks.push({ type: "text", text: block.text });
		else if ((block.type === "tool_use" || block.type === "server_tool_use") && typeof block.name === "string") {
			const id = asString(block.id);
			if (id) cs.toolNames.set(id, block.name);
			blocks.push({ type: "toolCall", id, name: block.name, arguments: block.input });
			const prompt = block.name === "Task" ? asString(asRecord(block.input)?.prompt)?.trim() : undefined;
			if (prompt) prompts.push(prompt);
		}
		// thinking blocks, their signatures and images are never indexed
	}
	const messageId = asString(message.id);
	const earlier = messageId ? cs.byMessageId.get(messageId) : undefined;
	for (const prompt of prompts) {
		const calls = cs.taskCalls.get(prompt);
		if (calls) calls.push(earlier?.id ?? uuid);
		else cs.taskCalls.set(prompt, [earlier?.id ?? uuid]);
	}
	if (earlier) {
		// One API message written as several lines: its blocks join the first line's entry, its usage counted once (the
		// last line's, the most complete).
		const m = earlier.raw.message as { content: PiBlock[]; usage?: unknown };
		m.content.push(...blocks);
		const usage = claudeUsage(message, line).usage;
		if (usage) m.usage = usage;
		cs.alias.set(uuid, earlier.id);
		return { entries: [], merged: earlier };
	}
	const e = assistantEntry(place(), blocks, { ...claudeUsage(message, line), stopReason: message.stop_reason });
	if (messageId) cs.byMessageId.set(messageId, e);
	return { entries: [e] };
}

function userLine(
	obj: Record<string, unknown>,
	message: Record<string, unknown>,
	place: () => Parameters<typeof userEntry>[0],
	cs: ClaudeState,
): LineResult {
	const content = message.content;
	if (obj.isCompactSummary === true) return { entries: [summaryEntry(place(), plainText(content))] };
	if (typeof content === "string") return { entries: [obj.isMeta === true ? metaEntry(place(), content) : userEntry(place(), content)] };
	const texts: string[] = [];
	const results: { tool?: string; text: string; error: boolean }[] = [];
	let images = 0;
	for (const raw of Array.isArray(content) ? content : []) {
		const block = asRecord(raw);
		if (!block) continue;
		if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
		else if (block.type === "image") images++;
		else if (block.type === "tool_result") {
			const id = asString(block.tool_use_id);
			results.push({ tool: id ? cs.toolNames.get(id) : undefined, text: toolResultText(block), error: block.is_error === true });
		}
	}
	if (results.length > 0) {
		const text = [...results.map((r) => r.text), ...texts].join("\n");
		const entry = toolResultEntry(
			place(),
			results[0].tool,
			text,
			results.some((r) => r.error),
		);
		const spilled = spilledOutput(obj.toolUseResult);
		if (spilled) entry.spilled = spilled;
		return { entries: [entry] };
	}
	const text = `${texts.join("\n")}${images > 0 ? "\n[image]" : ""}`.trim();
	return { entries: [obj.isMeta === true ? metaEntry(place(), text) : userEntry(place(), text)] };
}

/**
 * Where Claude Code kept the whole of an output too long to inline (`<session>/tool-results/<id>.txt`), relative to
 * the projects folder: the path it wrote is absolute and breaks when the config folder moves, its tail does not.
 */
function spilledOutput(result: unknown): string | undefined {
	const path = asString(asRecord(result)?.persistedOutputPath);
	const parts = path?.split(/[\\/]/) ?? [];
	const at = parts.lastIndexOf("tool-results");
	return at >= 2 && at === parts.length - 2 ? parts.slice(at - 2).join("/") : undefined;
}

/**
 * Claude Code 1.0.x wrote a sub-agent's messages into its parent's own file (`isSidechain`, and no `agentId`: 2.0
 * gave sub-agents files of their own), each sidechain a new root whose first prompt is its Task call's `prompt`.
 * Its first line gets a side entry to hang on (`SIDE_ENTRY_TYPE`: nothing under it is the session's leaf, so the
 * sidechain is never read as the conversation), itself hung on the entry of that call: a hit in the sidechain names
 * it. A call this parse did not read (a file grown between the call and its sidechain) leaves the side entry a root.
 */
function sidechainStart(obj: Record<string, unknown>, state: ParseState, cs: ClaudeState): SessionEntry | undefined {
	if (obj.type !== "user" || obj.isSidechain !== true || obj.agentId !== undefined || asString(obj.parentUuid)) return undefined;
	const uuid = asString(obj.uuid);
	const message = asRecord(obj.message);
	if (!uuid || !message) return undefined;
	const calls = cs.taskCalls.get(plainText(message.content).trim());
	const id = `${uuid}:${SIDE_ENTRY_TYPE}`;
	obj.parentUuid = id;
	return linkEntry({ id, parentId: calls?.shift() ?? null, seq: state.nextSeq++, timestamp: asString(obj.timestamp) }, SIDE_ENTRY_TYPE);
}

/** The session's id, folder and start from its first message line; a sub-agent's own id is its `agentId`. */
function readHeader(obj: Record<string, unknown>, state: ParseState): void {
	if (state.header) return;
	const sessionId = asString(obj.sessionId);
	if (!sessionId) return;
	const agentId = obj.isSidechain === true ? asString(obj.agentId) : undefined;
	state.header = {
		id: agentId ? `agent-${agentId}` : sessionId,
		version: 1,
		timestamp: asString(obj.timestamp),
		cwd: asString(obj.cwd),
		...(agentId ? { spawnedById: sessionId } : {}),
	};
	if (state.nextSeq === 0) state.nextSeq = 1;
}
