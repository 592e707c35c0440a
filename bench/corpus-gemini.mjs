// The Pi corpus as Gemini CLI 0.61.0's chats (test/fixtures/gemini holds real ones): `tmp/<project>/chats/
// session-<time>-<id8>.jsonl` with `.project_root` beside and `projects.json` above. Line 1 the session's metadata,
// a `$set.messages` checkpoint of the CLI's opening context, then each message as a record, a `$set.lastUpdated`
// after each; a model turn that called tools is written again whole once they answered, followed by the user-role
// message carrying their responses; a resume after a pause writes the metadata again and checkpoints the whole
// conversation; a compression is a checkpoint of the summary and the CLI's acknowledgement; a branch is `$rewindTo`;
// a name is `$set.summary`. Sessions started before LEGACY_BEFORE are one JSON document (`session-….json`), as the
// CLI wrote them before 0.39.
//   import { writeGemini } from "./corpus-gemini.mjs"; writeGemini(piSessions, out) → { root, layout, sessions, … }
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filler, hash32, piSessionFiles, textOf, uuidOf } from "./corpus-kit.mjs";

const MODEL = "gemini-3.1-pro-preview";
/** Chats started before this are written as the legacy `.json` document. */
const LEGACY_BEFORE = "2026-07-01";
/** A pause this long before a prompt is a resume (`gemini --resume`). */
const RESUME_AFTER_MS = 60 * 60 * 1000;
const ACK = "Got it. Thanks for the additional context!";
const TOOLS = {
	bash: ["run_shell_command", "Shell"],
	read: ["read_file", "ReadFile"],
	edit: ["replace", "Edit"],
	write: ["write_file", "WriteFile"],
	ls: ["list_directory", "ReadFolder"],
	grep: ["grep_search", "SearchText"],
	find: ["glob", "FindFiles"],
};

/** Gemini's session ids are random (v4): Pi's time-ordered ones would share their first 8 characters, the file name's. */
function sessionIdOf(header) {
	return uuidOf(header.id, "gemini");
}

function contextMessage(cwd, timestamp) {
	const listing = filler(700, 5)
		.split(" ")
		.slice(0, 40)
		.map((w) => `├───${w}.ts`)
		.join("\n");
	const text = `<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux\n- **Workspace Directories:**\n  - ${cwd}\n- **Directory Structure:**\n\nShowing up to 200 items (files + folders).\n\n${cwd}/\n${listing}\n\n</session_context>`;
	return { id: hash32(cwd, 12).repeat(4), timestamp, type: "user", content: [{ text }] };
}

/** Gemini's arguments for one of Pi's tool calls. */
function argsOf(name, args) {
	if (name === "bash") return { command: args.command, description: "run the command" };
	if (name === "read") return { file_path: args.path };
	if (name === "edit") {
		const e = args.edits?.[0] ?? args;
		return { file_path: args.path, instruction: "apply the change", old_string: e.oldText, new_string: e.newText };
	}
	if (name === "write") return { file_path: args.path, content: args.content };
	if (name === "ls") return { dir_path: args.path ?? "." };
	return { pattern: args.pattern, dir_path: args.path };
}

/** One chat: its records (JSONL lines) and the conversation as the CLI holds it (for checkpoints and the legacy document). */
class Chat {
	constructor(header, legacy) {
		this.header = header;
		/** Before 0.39 the chat was one document, rewritten whole; a compression lived in memory only. */
		this.legacy = legacy;
		this.lines = [];
		this.messages = new Map();
		this.active = [];
		this.pending = null;
		this.last = header.timestamp;
		this.meta = { sessionId: sessionIdOf(header), projectHash: createHash("sha256").update(header.cwd).digest("hex"), kind: "main" };
	}
	record(obj) {
		this.lines.push(JSON.stringify(obj));
	}
	opening(timestamp) {
		this.record({ ...this.meta, startTime: timestamp, lastUpdated: timestamp });
		const ctx = this.messages.get(this.context?.id) ?? contextMessage(this.header.cwd, timestamp);
		this.context = ctx;
		this.record({ $set: { messages: [ctx], lastUpdated: timestamp } });
		return ctx;
	}
	put(message, again = false) {
		this.record(message);
		this.record({ $set: { lastUpdated: message.timestamp } });
		this.messages.set(message.id, message);
		if (!again) this.active.push(message.id);
		this.last = message.timestamp;
	}
	conversation() {
		return [this.context, ...this.active.map((id) => this.messages.get(id))];
	}
	resume(timestamp) {
		this.opening(timestamp);
		this.record({ $set: { sessionId: this.meta.sessionId } });
		this.record({ $set: { messages: this.conversation() } });
	}
	/** A model turn with tool calls: written again whole once every call answered, then their responses as a user message. */
	flush() {
		const p = this.pending;
		if (!p) return;
		this.pending = null;
		const toolCalls = p.calls.map(({ call, result }) => {
			const [name, displayName] = TOOLS[call.name] ?? [call.name, call.name];
			const output =
				result === undefined
					? ""
					: name === "run_shell_command"
						? `<untrusted_context>\nOutput: ${result.text}\nProcess Group PGID: 4242\n</untrusted_context>`
						: result.text;
			const response = { functionResponse: { id: call.id, name, response: result?.error ? { error: output } : { output } } };
			const display = name === "run_shell_command" ? (result?.text ?? "") : `${displayName} done`;
			return {
				id: call.id,
				name,
				args: argsOf(call.name, call.arguments ?? {}),
				result: [response],
				status: result?.error ? "error" : "success",
				timestamp: result?.timestamp ?? p.message.timestamp,
				resultDisplay: display,
				description: call.name,
				displayName,
				renderOutputAsMarkdown: name !== "run_shell_command",
			};
		});
		this.put({ ...p.message, toolCalls }, true);
		const last = p.calls.at(-1)?.result?.timestamp ?? p.message.timestamp;
		this.put({ id: uuidOf(`${p.message.id}-responses`, last), timestamp: last, type: "user", content: toolCalls.map((c) => c.result[0]) });
	}
	answer(e) {
		this.flush();
		const m = e.message;
		const blocks = m.content ?? [];
		const thoughts = blocks
			.filter((b) => b.type === "thinking" && b.thinking)
			.map((b) => ({ subject: "Thinking", description: b.thinking, timestamp: e.timestamp }));
		const u = m.usage ?? {};
		const tokens = {
			input: u.input ?? 0,
			output: u.output ?? 0,
			cached: u.cacheRead ?? 0,
			thoughts: 0,
			tool: 0,
			total: u.totalTokens ?? 0,
		};
		const text = blocks
			.filter((b) => b.type === "text")
			.map((b) => b.text)
			.join("\n");
		const message = {
			id: uuidOf(e.id, e.timestamp),
			timestamp: e.timestamp,
			type: "gemini",
			content: text,
			thoughts,
			tokens,
			model: MODEL,
		};
		this.put(message);
		const calls = blocks.filter((b) => b.type === "toolCall");
		if (calls.length > 0) this.pending = { message, calls: calls.map((call) => ({ call })) };
	}
	result(e) {
		const slot = this.pending?.calls.find((c) => c.call.id === e.message.toolCallId);
		if (!slot) return;
		slot.result = { text: textOf(e.message.content), error: e.message.isError === true, timestamp: e.timestamp };
		if (this.pending.calls.every((c) => c.result)) this.flush();
	}
	/** Back to before `id` (a prompt of the conversation): the CLI drops it and all after. */
	rewind(id) {
		this.flush();
		const at = this.active.indexOf(id);
		if (at < 0) return;
		this.record({ $rewindTo: id });
		this.active = this.active.slice(0, at);
	}
	compress(e, keptFrom) {
		this.flush();
		if (this.legacy) return;
		const summary = {
			id: uuidOf(`${e.id}-snapshot`, e.timestamp),
			timestamp: e.timestamp,
			type: "user",
			content: [{ text: `<state_snapshot>\n${e.summary}\n</state_snapshot>` }],
		};
		const ack = { id: uuidOf(`${e.id}-ack`, e.timestamp), timestamp: e.timestamp, type: "gemini", content: [{ text: ACK }] };
		const kept = keptFrom ? this.active.slice(Math.max(0, this.active.indexOf(keptFrom))) : [];
		for (const m of [summary, ack]) this.messages.set(m.id, m);
		this.active = [summary.id, ack.id, ...kept];
		this.record({ $set: { messages: this.conversation() } });
	}
}

/** One Pi session as a chat; `legacy` gives the pre-0.39 document instead of records. */
function chatOf({ header, entries }, legacy) {
	const chat = new Chat(header, legacy);
	chat.opening(header.timestamp);
	const ids = new Map(); // Pi entry id → the chat's message id it became (for rewinds)
	const chain = [];
	let name;
	for (const e of entries) {
		// Pi's tree in file order: an entry that does not follow the one before is a branch back to its parent.
		const back = chain.lastIndexOf(e.parentId);
		if (back >= 0 && back < chain.length - 1) {
			const first = chain.slice(back + 1).find((id) => ids.has(id));
			if (first) chat.rewind(ids.get(first));
			chain.length = back + 1;
		}
		chain.push(e.id);
		if (e.type === "message") {
			const m = e.message;
			if (m.role === "user") {
				chat.flush();
				if (!legacy && Date.parse(e.timestamp) - Date.parse(chat.last) > RESUME_AFTER_MS) chat.resume(e.timestamp);
				const message = { id: uuidOf(e.id, e.timestamp), timestamp: e.timestamp, type: "user", content: [{ text: textOf(m.content) }] };
				chat.put(message);
				ids.set(e.id, message.id);
			} else if (m.role === "assistant") {
				chat.answer(e);
				ids.set(e.id, uuidOf(e.id, e.timestamp));
			} else if (m.role === "toolResult") chat.result(e);
			else if (m.role === "bashExecution") {
				chat.flush();
				chat.put({ id: uuidOf(e.id, e.timestamp), timestamp: e.timestamp, type: "user", content: [{ text: `!${m.command}` }] });
				chat.put({ id: uuidOf(`${e.id}-out`, e.timestamp), timestamp: e.timestamp, type: "info", content: m.output });
				ids.set(e.id, uuidOf(e.id, e.timestamp));
			}
		} else if (e.type === "compaction") chat.compress(e, ids.get(e.firstKeptEntryId));
		else if (e.type === "custom_message" || e.type === "branch_summary") {
			chat.flush();
			chat.put({ id: uuidOf(e.id, e.timestamp), timestamp: e.timestamp, type: "info", content: e.summary ?? textOf(e.content) });
		} else if (e.type === "session_info" && e.name) name = e.name;
	}
	chat.flush();
	if (name) chat.record({ $set: { summary: name } });
	if (!legacy) return `${chat.lines.join("\n")}\n`;
	const doc = {
		...chat.meta,
		startTime: header.timestamp,
		lastUpdated: chat.last,
		messages: chat.conversation(),
		...(name ? { summary: name } : {}),
	};
	return JSON.stringify(doc, null, 2);
}

/** Writes the corpus under `out` (a `.gemini` folder: walk its `tmp/`). */
export function writeGemini(piSessions, out) {
	const tmp = join(out, "tmp");
	const projects = {};
	let sessions = 0;
	let legacy = 0;
	for (const file of piSessionFiles(piSessions)) {
		const { header } = file;
		const slug = header.cwd.split("/").pop();
		const dir = join(tmp, slug);
		if (!projects[header.cwd]) {
			projects[header.cwd] = slug;
			mkdirSync(join(dir, "chats"), { recursive: true });
			writeFileSync(join(dir, ".project_root"), header.cwd);
		}
		const old = header.timestamp < LEGACY_BEFORE;
		const base = `session-${header.timestamp.slice(0, 16).replace(/:/g, "-")}-${sessionIdOf(header).slice(0, 8)}`;
		writeFileSync(join(dir, "chats", `${base}.${old ? "json" : "jsonl"}`), chatOf(file, old));
		if (old) legacy++;
		sessions++;
	}
	writeFileSync(join(out, "projects.json"), JSON.stringify({ projects }, null, 2));
	return { root: tmp, layout: "gemini", sessions, legacy };
}
