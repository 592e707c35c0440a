// The Pi corpus as Codex CLI 0.171.0's rollouts (test/fixtures/codex holds real ones): `sessions/YYYY/MM/DD/
// rollout-<time>-<id>.jsonl`, one record a line: the session's meta with Codex's ~21 KB of base instructions, per
// turn its settings, context and task events, each prompt and answer as a response item and again as a completed
// item, every tool output twice (the command's item and the function's output), token counts after each answer,
// `compacted` with the replacement history, a rollback as `thread_rolled_back`. A fork starts with its parent's
// history replayed (the parent's meta first). Names go to `session_index.jsonl`. ZST_SHARE of the rollouts are
// compressed (`.jsonl.zst`), as Codex does once a rollout has been idle for 7 days.
//   import { writeCodex } from "./corpus-codex.mjs"; writeCodex(piSessions, out) → { root, layout, sessions, … }

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress, init } from "@bokuweb/zstd-wasm";
import { copiedPrefix, filler, hash32, piSessionFiles, textOf, uuidOf } from "./corpus-kit.mjs";

const CLI_VERSION = "0.171.0";
/** Share of the rollouts written compressed, chosen by session id. */
const ZST_SHARE = 0.5;
const BASE_INSTRUCTIONS = `You are a coding agent running in the Codex CLI. ${filler(20_700, 1)}`;
const SKILLS = `<skills_instructions>\n## Skills\n${filler(3_000, 2)}\n</skills_instructions>`;
const WORLD = { agents_md: {}, apps_instructions: false, context_window_guidance: "", skills: filler(2_600, 3) };
const RATE_LIMITS = { limit_id: "codex", limit_name: null, primary: null, secondary: null, credits: null, plan_type: null };
const TOOLS = { bash: "exec_command", read: "exec_command", ls: "exec_command", grep: "exec_command", find: "exec_command" };

/** The shell command Codex would run for one of Pi's tools. */
function commandOf(name, args) {
	if (name === "bash") return args.command ?? "";
	if (name === "read") return `sed -n '1,400p' ${args.path ?? ""}`;
	if (name === "ls") return `ls -la ${args.path ?? "."}`;
	if (name === "grep") return `rg -n ${JSON.stringify(args.pattern ?? "")} ${args.path ?? "."}`;
	if (name === "find") return `rg --files -g ${JSON.stringify(args.pattern ?? "*")} ${args.path ?? "."}`;
	return `${name} ${JSON.stringify(args)}`;
}

/** An apply_patch body for Pi's edit and write. */
function patchOf(name, args) {
	if (name === "write")
		return `*** Begin Patch\n*** Add File: ${args.path}\n${String(args.content ?? "").replace(/^/gm, "+")}\n*** End Patch`;
	const hunks = (args.edits ?? [{ oldText: args.oldText, newText: args.newText }]).map(
		(e) => `@@\n${String(e.oldText ?? "").replace(/^/gm, "-")}\n${String(e.newText ?? "").replace(/^/gm, "+")}`,
	);
	return `*** Begin Patch\n*** Update File: ${args.path}\n${hunks.join("\n")}\n*** End Patch`;
}

const usage = (n) => ({
	input_tokens: 1000 + n,
	cached_input_tokens: 800,
	output_tokens: 60,
	reasoning_output_tokens: 0,
	total_tokens: 1060 + n,
});

/** One session's rollout lines; `thread` names the thread the records belong to (a fork's replayed prefix is its parent's). */
class Rollout {
	constructor(header, cwd) {
		this.header = header;
		this.cwd = cwd;
		this.lines = [];
		this.ordinal = 0;
		this.turn = null;
		this.lastAgent = "";
		this.turns = [];
		this.chain = [];
		this.calls = new Map();
		this.prompts = [];
		this.started = false;
	}
	push(timestamp, type, payload, extra = {}) {
		this.lines.push(JSON.stringify({ timestamp, ordinal: this.ordinal++, type, payload, ...extra }));
	}
	meta(id, timestamp, extra = {}) {
		this.push(timestamp, "session_meta", {
			session_id: id,
			id,
			timestamp,
			cwd: this.cwd,
			originator: "codex_cli_rs",
			cli_version: CLI_VERSION,
			source: "cli",
			thread_source: "user",
			model_provider: "openai",
			base_instructions: { text: BASE_INSTRUCTIONS, provenance: { type: "model", model: "gpt-5.5" } },
			history_mode: "paginated",
			...extra,
		});
	}
	settings(timestamp, thread) {
		const settings = { model: "gpt-5.5", approval_policy: "on-request", cwd: this.cwd, collaboration_mode: { mode: "default" } };
		this.push(timestamp, "event_msg", { type: "thread_settings_applied", thread_id: thread, thread_settings: settings });
	}
	endTurn(timestamp) {
		if (!this.turn) return;
		this.push(timestamp, "event_msg", { type: "task_complete", turn_id: this.turn, last_agent_message: this.lastAgent.slice(0, 4000) });
		this.turn = null;
	}
	prompt(e, thread) {
		const text = textOf(e.message.content);
		this.endTurn(e.timestamp);
		this.turn = uuidOf(`${e.id}-turn`, e.timestamp);
		this.push(e.timestamp, "event_msg", { type: "task_started", turn_id: this.turn, model_context_window: 258400 });
		this.push(e.timestamp, "turn_context", { turn_id: this.turn, cwd: this.cwd, approval_policy: "on-request", model: "gpt-5.5" });
		if (!this.started) {
			this.started = true;
			this.message(e.timestamp, "developer", "input_text", SKILLS);
			this.message(
				e.timestamp,
				"user",
				"input_text",
				`<environment_context>\n  <cwd>${this.cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
			);
			this.push(e.timestamp, "world_state", { full: true, state: WORLD });
		}
		this.message(e.timestamp, "user", "input_text", text, `msg_${hash32(e.id, 5)}`);
		const item = { type: "UserMessage", id: uuidOf(`${e.id}-item`, e.timestamp), content: [{ type: "text", text, text_elements: [] }] };
		this.push(e.timestamp, "event_msg", { type: "item_completed", thread_id: thread, turn_id: this.turn, item });
		this.prompts.push(text);
		this.turns.push(e.id);
	}
	message(timestamp, role, kind, text, id = `msg_${hash32(text.slice(0, 64) + timestamp, 6)}`, metadata) {
		const content = [{ type: kind, text, ...(kind === "output_text" ? { annotations: [] } : {}) }];
		this.push(timestamp, "response_item", { type: "message", id, role, content }, metadata ? { metadata } : {});
	}
	answer(e, thread) {
		const m = e.message;
		const n = this.lines.length;
		for (const b of m.content ?? []) {
			if (b.type === "thinking" && b.thinking) {
				const summary = [{ type: "summary_text", text: b.thinking }];
				this.push(e.timestamp, "response_item", {
					type: "reasoning",
					summary,
					content: null,
					encrypted_content: filler(b.thinking.length, 4),
				});
			} else if (b.type === "text") {
				const item = { type: "AgentMessage", id: `msg_${hash32(e.id, 7)}`, content: [{ type: "Text", text: b.text }] };
				this.push(e.timestamp, "event_msg", { type: "item_completed", thread_id: thread, turn_id: this.turn, item });
				this.message(e.timestamp, "assistant", "output_text", b.text, item.id);
				this.lastAgent = b.text;
			} else if (b.type === "toolCall") {
				this.calls.set(b.id, b);
				if (b.name === "edit" || b.name === "write")
					this.push(e.timestamp, "response_item", {
						type: "custom_tool_call",
						name: "apply_patch",
						input: patchOf(b.name, b.arguments),
						call_id: b.id,
					});
				else {
					const args = TOOLS[b.name] ? { cmd: commandOf(b.name, b.arguments) } : b.arguments;
					this.push(e.timestamp, "response_item", {
						type: "function_call",
						name: TOOLS[b.name] ?? b.name,
						arguments: JSON.stringify(args),
						call_id: b.id,
					});
				}
			}
		}
		this.push(e.timestamp, "token_usage_record", {
			thread_id: thread,
			turn_id: this.turn,
			response_id: `resp_${hash32(e.id, 8)}`,
			usage: usage(n),
		});
	}
	result(e, thread) {
		const m = e.message;
		const call = this.calls.get(m.toolCallId);
		const text = textOf(m.content);
		if (call && (call.name === "edit" || call.name === "write")) {
			const output = JSON.stringify({ output: text, metadata: { exit_code: m.isError ? 1 : 0, duration_seconds: 0.1 } });
			this.push(e.timestamp, "response_item", { type: "custom_tool_call_output", call_id: m.toolCallId, output });
		} else {
			const command = call ? commandOf(call.name, call.arguments) : m.toolName;
			const item = { type: "CommandExecution", id: m.toolCallId, command: ["/bin/bash", "-lc", command], cwd: `file://${this.cwd}` };
			Object.assign(item, { status: "completed", aggregated_output: text, exit_code: m.isError ? 1 : 0 });
			this.push(e.timestamp, "event_msg", { type: "item_completed", thread_id: thread, turn_id: this.turn, item });
			const output = `Chunk ID: ${hash32(e.id, 9).slice(0, 6)}\nWall time: 0.0${e.id.length} seconds\nProcess exited with code ${m.isError ? 1 : 0}\nOriginal token count: ${Math.ceil(text.length / 4)}\nOutput:\n${text}`;
			this.push(e.timestamp, "response_item", { type: "function_call_output", call_id: m.toolCallId, output });
		}
		this.push(e.timestamp, "event_msg", {
			type: "token_count",
			info: { total_token_usage: usage(this.lines.length), model_context_window: 258400 },
			rate_limits: RATE_LIMITS,
		});
	}
	compaction(e, thread) {
		this.message(e.timestamp, "assistant", "output_text", e.summary, `msg_${hash32(e.id, 10)}`, { compaction_output: true });
		const replacement = [
			...this.prompts.slice(-10).map((text) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] })),
			{ type: "message", role: "developer", content: [{ type: "input_text", text: SKILLS }] },
		];
		const message = `Another language model started to solve this problem and produced a summary of its thinking process.\n${e.summary}`;
		this.push(e.timestamp, "compacted", { message, replacement_history: replacement });
		this.push(e.timestamp, "world_state", { full: true, state: WORLD });
		this.push(e.timestamp, "event_msg", {
			type: "item_completed",
			thread_id: thread,
			turn_id: this.turn,
			item: { type: "ContextCompaction", id: uuidOf(`${e.id}-c`, e.timestamp) },
		});
	}
}

/** Pi's tree read in file order: a Pi entry whose parent is an earlier user turn's is a rollback of the turns after it. */
function rollback(out, e, thread) {
	const back = out.chain.lastIndexOf(e.parentId);
	if (back < 0 || back === out.chain.length - 1) return;
	const after = new Set(out.chain.slice(back + 1));
	const n = out.turns.filter((id) => after.has(id)).length;
	out.chain = out.chain.slice(0, back + 1);
	if (n === 0) return;
	out.endTurn(e.timestamp);
	out.turns = out.turns.filter((id) => !after.has(id));
	out.push(e.timestamp, "event_msg", { type: "thread_rolled_back", thread_id: thread, num_turns: n });
}

/** One Pi session as a rollout: its lines and the name it was given, if any. */
function rolloutOf({ header, entries }, copied, parentId) {
	const cwd = header.cwd;
	const out = new Rollout(header, cwd);
	let name;
	out.meta(header.id, header.timestamp, parentId ? { forked_from_id: parentId } : {});
	// A fork replays its parent's history first, the parent's meta at its head; its own records follow its settings.
	if (parentId) out.meta(parentId, entries[0]?.timestamp ?? header.timestamp);
	for (const [i, e] of entries.entries()) {
		const thread = parentId && i < copied ? parentId : header.id;
		if (parentId && i === copied) out.settings(e.timestamp, header.id);
		rollback(out, e, thread);
		out.chain.push(e.id);
		if (e.type === "message") {
			const role = e.message.role;
			if (role === "user") out.prompt(e, thread);
			else if (role === "assistant") out.answer(e, thread);
			else if (role === "toolResult") out.result(e, thread);
			else if (role === "bashExecution")
				out.message(
					e.timestamp,
					"user",
					"input_text",
					`<user_shell_command>\n$ ${e.message.command}\n${e.message.output}\n</user_shell_command>`,
				);
		} else if (e.type === "compaction") out.compaction(e, thread);
		else if (e.type === "custom_message") out.message(e.timestamp, "developer", "input_text", textOf(e.content));
		else if (e.type === "branch_summary") out.message(e.timestamp, "developer", "input_text", e.summary);
		else if (e.type === "session_info" && e.name) name = { name: e.name, at: e.timestamp };
	}
	out.endTurn(entries.at(-1)?.timestamp ?? header.timestamp);
	return { text: `${out.lines.join("\n")}\n`, name };
}

function rolloutPath(root, header) {
	const t = header.timestamp;
	const dir = join(root, t.slice(0, 4), t.slice(5, 7), t.slice(8, 10));
	return { dir, name: `rollout-${t.slice(0, 19).replace(/:/g, "-")}-${header.id}.jsonl` };
}

/** Writes the corpus under `out` (a Codex home); the zstd encoder (a wasm build, dev-only) is loaded first. */
export async function writeCodex(piSessions, out) {
	await init();
	const root = join(out, "sessions");
	let sessions = 0;
	let zst = 0;
	let jsonlBytes = 0;
	const names = [];
	for (const file of piSessionFiles(piSessions)) {
		const copied = copiedPrefix(piSessions, file.project, file.header, file.entries);
		const parentId =
			copied > 0
				? file.header.parentSession
						.split("_")
						.pop()
						.replace(/\.jsonl$/, "")
				: undefined;
		const { text, name } = rolloutOf(file, copied, parentId);
		const at = rolloutPath(root, file.header);
		mkdirSync(at.dir, { recursive: true });
		jsonlBytes += Buffer.byteLength(text);
		if (Number.parseInt(hash32(file.header.id, 11), 16) / 2 ** 32 < ZST_SHARE) {
			writeFileSync(join(at.dir, `${at.name}.zst`), compress(new TextEncoder().encode(text), 3));
			zst++;
		} else writeFileSync(join(at.dir, at.name), text);
		if (name) names.push(JSON.stringify({ id: file.header.id, thread_name: name.name, updated_at: name.at }));
		sessions++;
	}
	if (names.length > 0) appendFileSync(join(out, "session_index.jsonl"), `${names.join("\n")}\n`);
	return { root: out, layout: "codex", sessions, zst, jsonlBytes };
}
