// The benchmark's Pi corpus as OpenCode's database: one `opencode.db` in a data folder, made with the schema the real
// OpenCode 1.18.33 created (read from test/fixtures/opencode/opencode.db) and the rows it writes (test/agents/
// opencode-cli.test.ts): a session row per session, a message row per prompt and per answer, and the answer's parts
// (step-start, reasoning, text, one tool part per call holding its output, step-finish); a compaction as a user
// message with a compaction part and a summary answer; the harness's messages as synthetic text. In WAL mode, as
// OpenCode leaves it after a checkpoint. Run by agent-corpus.mjs (it needs the engine, which loads asynchronously):
// node bench/opencode-corpus.mjs <pi sessions folder> <data folder>   prints {"sessions": n}
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadEngine } from "../dist/index.js";

const [piSessions, dataDir] = process.argv.slice(2);
const FIXTURE = join(import.meta.dirname, "..", "test", "fixtures", "opencode", "opencode.db");

function textOf(content) {
	return typeof content === "string" ? content : (content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

const ms = (iso) => Date.parse(iso) || 0;
const id = (prefix, session, n) => `${prefix}_${session.toString(16).padStart(6, "0")}${n.toString(16).padStart(6, "0")}benchcorpus00`;

/** One Pi session file → OpenCode's rows: a session, its messages, their parts. */
function sessionRows(lines, s) {
	const header = JSON.parse(lines[0]);
	const sessionId = id("ses", s, 0);
	const messages = [];
	let n = 0;
	let lastUser = null;
	let answer = null;
	let title = null;
	const message = (info, at) => {
		const m = { id: id("msg", s, ++n), at, info, parts: [] };
		messages.push(m);
		return m;
	};
	const part = (m, data) => m.parts.push({ id: id("prt", s, ++n), data });
	const user = (text, at, synthetic) => {
		const m = message(
			{ role: "user", time: { created: at }, agent: "build", model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" } },
			at,
		);
		part(m, { type: "text", text, ...(synthetic ? { synthetic: true } : {}) });
		lastUser = m;
		answer = null;
		return m;
	};
	for (const line of lines.slice(1)) {
		const e = JSON.parse(line);
		const at = ms(e.timestamp);
		if (e.type === "message") {
			const m = e.message;
			if (m.role === "user") user(textOf(m.content), at, false);
			else if (m.role === "assistant") {
				const u = m.usage ?? {};
				answer = message(
					{
						role: "assistant",
						parentID: lastUser?.id,
						mode: "build",
						agent: "build",
						path: { cwd: header.cwd, root: header.cwd },
						cost: u.cost?.total ?? 0,
						tokens: {
							total: u.totalTokens ?? 0,
							input: u.input ?? 0,
							output: u.output ?? 0,
							reasoning: 0,
							cache: { read: u.cacheRead ?? 0, write: u.cacheWrite ?? 0 },
						},
						modelID: m.model,
						providerID: m.provider,
						time: { created: at, completed: at + 1 },
						finish: m.stopReason === "toolUse" ? "tool-calls" : "stop",
					},
					at,
				);
				part(answer, { type: "step-start", snapshot: "4b825dc642cb6eb9a060e54bf8d69288fbee4904" });
				for (const b of m.content ?? []) {
					if (b.type === "thinking") part(answer, { type: "reasoning", text: b.thinking ?? "", time: { start: at, end: at } });
					else if (b.type === "text") part(answer, { type: "text", text: b.text, time: { start: at, end: at } });
					else if (b.type === "toolCall")
						part(answer, {
							type: "tool",
							tool: b.name,
							callID: b.id,
							state: { status: "running", input: b.arguments, time: { start: at } },
						});
				}
				part(answer, { type: "step-finish", reason: answer.info.finish, tokens: answer.info.tokens, cost: answer.info.cost });
			} else if (m.role === "toolResult") {
				// OpenCode keeps a tool's output in the call's own part.
				const call = answer?.parts.find((p) => p.data.type === "tool" && p.data.callID === m.toolCallId);
				const output = textOf(m.content);
				if (call)
					call.data.state = {
						...call.data.state,
						status: m.isError ? "error" : "completed",
						...(m.isError ? { error: output } : { output, title: call.data.tool, metadata: {} }),
						time: { start: at, end: at },
					};
			} else if (m.role === "bashExecution") {
				const shell = message(
					{
						role: "assistant",
						parentID: lastUser?.id,
						mode: "build",
						agent: "build",
						time: { created: at, completed: at },
						finish: "stop",
					},
					at,
				);
				part(shell, {
					type: "tool",
					tool: "bash",
					callID: `shell_${n}`,
					state: { status: "completed", input: { command: m.command }, output: m.output ?? "", title: m.command, metadata: {} },
				});
			}
		} else if (e.type === "compaction") {
			const c = message({ role: "user", time: { created: at }, agent: "build" }, at);
			part(c, { type: "compaction", auto: true, overflow: false });
			const summary = message(
				{
					role: "assistant",
					parentID: c.id,
					mode: "compaction",
					agent: "compaction",
					summary: true,
					time: { created: at, completed: at },
					finish: "stop",
				},
				at,
			);
			part(summary, { type: "text", text: e.summary ?? "" });
			user("Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.", at, true);
		} else if (e.type === "custom_message" || e.type === "branch_summary") {
			user(e.type === "branch_summary" ? (e.summary ?? "") : textOf(e.content), at, true);
		} else if (e.type === "session_info" && e.name) title = e.name;
	}
	const created = ms(header.timestamp);
	const updated = messages.reduce((t, m) => Math.max(t, m.at), created);
	const session = {
		id: sessionId,
		directory: header.cwd,
		title: title ?? `New session - ${new Date(created).toISOString()}`,
		created,
		updated,
	};
	return { session, messages };
}

const engine = await loadEngine();
const fixture = new Uint8Array(readFileSync(FIXTURE));
fixture[18] = 1;
fixture[19] = 1;
const schema = new engine.Database(fixture);
const statements = schema.exec("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")[0].values.map((r) => r[0]);
schema.close();
const db = new engine.Database();
for (const sql of statements) db.run(sql);
db.run("INSERT INTO project(id, worktree, time_created, time_updated, sandboxes) VALUES ('global', '/', 0, 0, '[]')");
db.run("BEGIN");
const addSession = db.prepare(
	"INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', 'bench-session', ?, ?, '1.18.33', ?, ?)",
);
const addMessage = db.prepare("INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)");
const addPart = db.prepare("INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)");
let sessions = 0;
for (const project of readdirSync(piSessions).sort()) {
	for (const name of readdirSync(join(piSessions, project)).sort()) {
		if (!name.endsWith(".jsonl")) continue;
		const lines = readFileSync(join(piSessions, project, name), "utf8")
			.trimEnd()
			.split("\n");
		const { session, messages } = sessionRows(lines, ++sessions);
		addSession.run([session.id, session.directory, session.title, session.created, session.updated]);
		for (const m of messages) {
			addMessage.run([m.id, session.id, m.at, m.at, JSON.stringify(m.info)]);
			for (const p of m.parts) addPart.run([p.id, m.id, session.id, m.at, m.at, JSON.stringify(p.data)]);
		}
	}
}
db.run("COMMIT");
for (const stmt of [addSession, addMessage, addPart]) stmt.free();
const image = db.export();
db.close();
image[18] = 2;
image[19] = 2;
mkdirSync(dataDir, { recursive: true });
writeFileSync(join(dataDir, "opencode.db"), image);
console.log(JSON.stringify({ sessions }));
