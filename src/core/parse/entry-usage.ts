/**
 * What an entry in Pi's shape says about usage: a model answer's model, provider, tokens and recorded cost (Pi's
 * `usage`, which every format module fills for its agent), its tool calls and the files they edited; a tool result's
 * error. Read leniently: a field that is not a number of tokens is left out, never fatal to the rest.
 */

import { AGENT_FACTS } from "../../agents/registry.js";
import type { SessionEntry } from "./session-format.js";

/** Tokens of one message, as billed: input excludes the prompt read from or written to the cache. */
export interface TokenCounts {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

export interface AnswerUsage {
	model?: string;
	provider?: string;
	/** Undefined when the message recorded none (or none readable). */
	tokens?: TokenCounts;
	/** USD, as the session recorded it. */
	cost?: number;
	/** Tool calls by tool name. */
	calls: Map<string, number>;
	/** Files the calls wrote or edited, as the calls name them. */
	files: string[];
	/** Usage the agent reported apart from its answer (Codex's token counts): tokens, but not a message. */
	apart: boolean;
}

/**
 * Tools that write or edit a file that any agent may be given (Anthropic's text editor, file servers over MCP),
 * lower-cased; each agent's own are in its facts (`AgentFacts.editTools`). An entry does not say its agent here,
 * so a tool is an edit tool in every agent's session when it is one in any.
 */
const SHARED_EDIT_TOOLS = ["multi_edit", "write_file", "create_file", "edit_file", "str_replace_editor", "str_replace_based_edit_tool"];

let editTools: Set<string> | undefined;

/** Every agent's edit tools and the shared ones; made at first use (the registry is read only inside functions). */
function isEditTool(tool: string): boolean {
	editTools ??= new Set([...SHARED_EDIT_TOOLS, ...AGENT_FACTS.flatMap((a) => a.editTools ?? [])]);
	return editTools.has(tool.toLowerCase());
}

/** Argument names that hold the edited file's path. */
const PATH_KEYS = ["path", "file_path", "filePath", "notebook_path", "target_file", "filename"];

/** A path is kept to this many characters, and a message names at most this many files (a runaway patch stays bounded). */
const MAX_PATH_CHARS = 1024;
const MAX_FILES = 200;

function record(value: unknown): Record<string, unknown> | undefined {
	return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A count of tokens: a finite number at or above zero (a malformed one counts as absent). */
function count(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

function usd(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Pi's `usage` ({input, output, cacheRead, cacheWrite, cost: {total}}): the tokens and cost it holds, each only if readable. */
function piUsage(usage: unknown): { tokens?: TokenCounts; cost?: number } {
	const u = record(usage);
	if (!u) return {};
	const fields = [count(u.input), count(u.output), count(u.cacheRead), count(u.cacheWrite)];
	const tokens = fields.some((f) => f !== undefined)
		? { input: fields[0] ?? 0, output: fields[1] ?? 0, cacheRead: fields[2] ?? 0, cacheWrite: fields[3] ?? 0 }
		: undefined;
	return { tokens, cost: usd(record(u.cost)?.total) };
}

/** Paths a patch in Codex's `apply_patch` form adds, updates, deletes or moves to. */
function patchFiles(patch: string): string[] {
	const files: string[] = [];
	for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
		const path = (m[1] ?? m[2]).trim();
		if (path && !files.includes(path)) files.push(path);
	}
	return files;
}

/** Files one tool call writes or edits: an edit tool's path argument, or the files of a patch in any of its arguments. */
function touchedFiles(tool: string, args: unknown): string[] {
	const a = record(args);
	const out: string[] = [];
	if (isEditTool(tool) && a) for (const key of PATH_KEYS) if (typeof a[key] === "string" && a[key]) out.push(a[key] as string);
	// apply_patch, as its own tool (input) or inside a shell call (command), and OpenCode's patch (patchText)
	const strings = typeof args === "string" ? [args] : a ? Object.values(a).flatMap((v) => (Array.isArray(v) ? v : [v])) : [];
	for (const s of strings) if (typeof s === "string" && s.includes("*** Begin Patch")) out.push(...patchFiles(s));
	return [...new Set(out.map((p) => p.slice(0, MAX_PATH_CHARS)))];
}

/** The usage of a model answer (or of usage reported apart), or undefined for any other entry. */
export function answerUsage(entry: SessionEntry): AnswerUsage | undefined {
	const message = record(entry.raw.message);
	if (message?.role !== "assistant") return undefined;
	const apart = entry.type !== "message";
	const { tokens, cost } = piUsage(message.usage);
	const calls = new Map<string, number>();
	const files: string[] = [];
	for (const raw of Array.isArray(message.content) ? message.content : []) {
		const block = record(raw);
		if (block?.type !== "toolCall" || typeof block.name !== "string" || !block.name) continue;
		calls.set(block.name, (calls.get(block.name) ?? 0) + 1);
		for (const f of touchedFiles(block.name, block.arguments)) if (files.length < MAX_FILES && !files.includes(f)) files.push(f);
	}
	return {
		model: typeof message.model === "string" && message.model ? message.model : undefined,
		provider: typeof message.provider === "string" && message.provider ? message.provider : undefined,
		tokens,
		cost,
		calls,
		files,
		apart,
	};
}

/** The tool named by a tool result that reported an error (`isError`), or undefined. */
export function toolError(entry: SessionEntry): string | undefined {
	const message = record(entry.raw.message);
	if (message?.role !== "toolResult" || message.isError !== true) return undefined;
	return typeof message.toolName === "string" && message.toolName ? message.toolName : "(unnamed tool)";
}
