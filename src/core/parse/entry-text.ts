/**
 * What of an entry is searchable, under which role, within which budget. Images, thinking blocks,
 * signatures and usage are never indexed.
 */

import { DEFAULTS } from "../defaults.js";
import { formatOf } from "./formats.js";
import { parseJsonObject } from "./jsonl.js";
import type { SessionEntry } from "./session-format.js";
import type { AgentKind } from "./source.js";

/**
 * Roles a hit can have; search filters by them and ranks prose above tool output. The one list of them: the
 * FTS table's columns (in this order), their BM25 weights and the tool's role parameter follow it.
 */
export const ROLES = ["user", "assistant", "tool", "summary", "meta"] as const;
export type Role = (typeof ROLES)[number];

/** Indexed text of one entry, split by FTS column (an assistant entry has prose and tool calls). */
export interface EntryText {
	role: Role;
	/** Text per role column; the columns not present are empty. */
	columns: Partial<Record<Role, string>>;
	/** The text shown to people and the model: what was indexed, in reading order. */
	body: string;
	/** Tool name of a tool call or result, command of a bash execution. */
	tool?: string;
	/** Whether a part was cut to its head and tail. */
	truncated: boolean;
	/** When a part was cut: the whole text, every part uncut (its words are indexed without positions). */
	whole?: string;
}

/** Keep the head and the tail of a long text, marking the cut. */
function headTail(text: string, max: number, headShare: number): Part {
	if (text.length <= max) return { text, cut: false, whole: text };
	const head = Math.floor(max * headShare);
	const tail = max - head;
	return {
		text: `${text.slice(0, head)}\n[… ${text.length - max} characters only in the word index …]\n${text.slice(text.length - tail)}`,
		cut: true,
		whole: text,
	};
}

/** A part of an entry's text: what is stored (head and tail), whether it was cut, and the whole. */
interface Part {
	text: string;
	cut: boolean;
	whole: string;
}

function textBlocks(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	for (const block of content) {
		if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
			const text = (block as { text?: unknown }).text;
			if (typeof text === "string") parts.push(text);
		}
	}
	return parts.join("\n");
}

function hasImage(content: unknown): boolean {
	return Array.isArray(content) && content.some((b) => b && typeof b === "object" && (b as { type?: unknown }).type === "image");
}

function prose(text: string): Part {
	return headTail(text, DEFAULTS.proseMaxChars, DEFAULTS.proseHeadShare);
}

function toolText(text: string): Part {
	return headTail(text, DEFAULTS.toolMaxChars, DEFAULTS.toolHeadShare);
}

function stringify(value: unknown): string {
	if (value === undefined) return "";
	if (typeof value === "string") return value;
	try {
		return JSON.stringify(value) ?? "";
	} catch {
		return "";
	}
}

function single(role: Role, part: Part, tool?: string): EntryText | undefined {
	if (part.text.trim().length === 0) return undefined;
	return { role, columns: { [role]: part.text }, body: part.text, tool, truncated: part.cut, ...(part.cut ? { whole: part.whole } : {}) };
}

/** The searchable text of an entry, or undefined when it has none (model changes, custom state, …). */
export function entryText(entry: SessionEntry): EntryText | undefined {
	const raw = entry.raw;
	switch (entry.type) {
		case "message":
			return messageText(raw.message);
		case "compaction":
		case "branch_summary":
			return single("summary", prose(stringify(raw.summary)));
		case "custom_message":
			return single("meta", prose(textBlocks(raw.content)));
		case "session_info":
			return single("meta", prose(stringify(raw.name)));
		case "label":
			return single("meta", prose(stringify(raw.label)));
		case "title_change": // omp's session renames
			return single("meta", prose(stringify(raw.title)));
		case "session_init": // omp: the task a sub-agent was given
			return single("meta", prose(stringify(raw.task)));
		default:
			return undefined;
	}
}

function messageText(message: unknown): EntryText | undefined {
	if (!message || typeof message !== "object") return undefined;
	const m = message as Record<string, unknown>;
	switch (m.role) {
		case "user": {
			const text = textBlocks(m.content) + (hasImage(m.content) ? "\n[image]" : "");
			return single("user", prose(text.trim()));
		}
		case "assistant":
			// A turn that ended in a provider's error keeps it in `errorMessage`: people search for the error they hit.
			return assistantText(m.content, typeof m.errorMessage === "string" ? m.errorMessage : undefined);
		case "toolResult": {
			const tool = typeof m.toolName === "string" ? m.toolName : undefined;
			const part = toolText(textBlocks(m.content));
			return single("tool", part, tool);
		}
		case "bashExecution": {
			const command = stringify(m.command);
			const output = toolText(stringify(m.output));
			const text = `$ ${command}\n${output.text}`;
			return single("tool", { text, cut: output.cut, whole: `$ ${command}\n${output.whole}` }, command.slice(0, 200));
		}
		case "custom":
		case "developer": // omp: instructions injected by the harness
			return single("meta", prose(textBlocks(m.content)));
		case "pythonExecution": {
			// omp's python tool: the code and what it printed
			const code = stringify(m.code ?? m.command);
			const output = toolText(stringify(m.output));
			return single("tool", { text: `>>> ${code}\n${output.text}`, cut: output.cut, whole: `>>> ${code}\n${output.whole}` }, "python");
		}
		case "fileMention": {
			const files = Array.isArray(m.files)
				? m.files.map((f) => (typeof f === "string" ? f : stringify((f as { path?: unknown }).path ?? f)))
				: [];
			return single("meta", prose(files.join("\n")));
		}
		default:
			return undefined;
	}
}

function assistantText(content: unknown, errorMessage?: string): EntryText | undefined {
	if (!Array.isArray(content)) return single("assistant", prose([textBlocks(content), errorMessage ?? ""].filter((t) => t).join("\n")));
	const texts: string[] = [];
	const calls: string[] = [];
	const wholeCalls: string[] = [];
	let tool: string | undefined;
	let truncated = false;
	for (const block of content) {
		if (!block || typeof block !== "object") continue;
		const b = block as Record<string, unknown>;
		if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
		else if (b.type === "toolCall" && typeof b.name === "string") {
			tool ??= b.name;
			const args = toolText(stringify(b.arguments));
			truncated ||= args.cut;
			calls.push(`${b.name} ${args.text}`);
			wholeCalls.push(`${b.name} ${args.whole}`);
		}
	}
	if (errorMessage) texts.push(`[error] ${errorMessage}`);
	const text = prose(texts.join("\n").trim());
	truncated ||= text.cut;
	const callText = calls.join("\n");
	if (text.text.length === 0 && callText.length === 0) return undefined;
	const columns: EntryText["columns"] = {};
	if (text.text.length > 0) columns.assistant = text.text;
	if (callText.length > 0) columns.tool = callText;
	// Prose, then one `→ name {arguments}` line per call; the whole text has the same shape, so it reads as the body does.
	const shape = (prose: string, lines: string[]) => [prose, ...lines.map((c) => `→ ${c}`)].filter((s) => s.length > 0).join("\n");
	const body = shape(text.text, calls);
	const whole = truncated ? shape(text.whole.trim(), wholeCalls) : undefined;
	return { role: "assistant", columns, body, tool, truncated, ...(whole !== undefined ? { whole } : {}) };
}

/** The whole text of an entry from its line in the session file (a snippet around a match in its unstored middle). */
export function wholeTextOfLine(line: Uint8Array, agent?: AgentKind): string | undefined {
	const decoded = new TextDecoder()
		.decode(line)
		.replace(/^\uFEFF/, "")
		.trim();
	const format = formatOf(agent);
	if (format.entriesOfLine) {
		const text = format.entriesOfLine(decoded).map(entryText)[0];
		return text ? (text.whole ?? text.body) : undefined;
	}
	const raw = parseJsonObject(decoded);
	if (!raw || typeof raw.type !== "string") return undefined;
	const text = entryText({ type: raw.type, id: "", parentId: null, seq: 0, raw });
	return text ? (text.whole ?? text.body) : undefined;
}
