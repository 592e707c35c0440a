// The Pi corpus as OpenCode 1.18.33's database (test/fixtures/opencode holds a real one): one `opencode.db` in the
// data folder, with the schema the real CLI created (read from that fixture) and the rows it writes
// (test/agents/opencode-cli.test.ts): a session row per session, a message row per prompt and per answer, and each
// answer's parts (step-start, reasoning, text, one tool part per call holding its output, step-finish with the
// tokens); a compaction as a user message with a compaction part, a summary answer and OpenCode's synthetic
// "Continue" prompt; the harness's messages as synthetic text; a shell command as a bash tool call. In WAL mode, as
// OpenCode leaves it after a checkpoint. The file is written by lookback's own engine (the bench only; what users
// install only ever reads OpenCode's files).
//   import { writeOpencode } from "./corpus-opencode.mjs"; await writeOpencode(piSessions, out) → { root, layout, sessions, … }
//   import { opencodeDatabase } from "./corpus-opencode.mjs"; await opencodeDatabase(dataDir, sessions) (rows as sessionRows makes)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hash32, piSessionFiles, textOf } from "./corpus-kit.mjs";

const VERSION = "1.18.33";
const FIXTURE = join(import.meta.dirname, "..", "test", "fixtures", "opencode", "opencode.db");
const CONTINUE = "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.";

const ms = (iso) => Date.parse(iso) || 0;
/** OpenCode's ids: a prefix and 26 characters that sort by creation (here: by session, then by row). */
const idOf = (prefix, session, n) => `${prefix}_${hash32(session, 12)}${n.toString(16).padStart(6, "0")}benchcorpus0`;

/** One Pi session (its header and entries) → OpenCode's rows: the session, its messages, their parts. */
export function sessionRows(header, entries) {
	const sessionId = idOf("ses", header.id, 0);
	const messages = [];
	let n = 0;
	let lastUser = null;
	let answer = null;
	let title = null;
	const message = (info, at) => {
		const m = { id: idOf("msg", header.id, ++n), at, info, parts: [] };
		messages.push(m);
		return m;
	};
	const part = (m, data) => m.parts.push({ id: idOf("prt", header.id, ++n), data });
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
	const assistant = (at, extra) =>
		message(
			{
				role: "assistant",
				parentID: lastUser?.id,
				mode: "build",
				agent: "build",
				path: { cwd: header.cwd, root: header.cwd },
				time: { created: at, completed: at + 1 },
				...extra,
			},
			at,
		);
	for (const e of entries) {
		const at = ms(e.timestamp);
		if (e.type === "message") {
			const m = e.message;
			if (m.role === "user") user(textOf(m.content), at, false);
			else if (m.role === "assistant") {
				const u = m.usage ?? {};
				const tokens = {
					total: u.totalTokens ?? 0,
					input: u.input ?? 0,
					output: u.output ?? 0,
					reasoning: 0,
					cache: { read: u.cacheRead ?? 0, write: u.cacheWrite ?? 0 },
				};
				const finish = m.stopReason === "toolUse" ? "tool-calls" : "stop";
				answer = assistant(at, { cost: u.cost?.total ?? 0, tokens, modelID: m.model, providerID: m.provider, finish });
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
				part(answer, { type: "step-finish", reason: finish, tokens, cost: answer.info.cost });
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
				const shell = assistant(at, { finish: "stop" });
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
			lastUser = c;
			const summary = assistant(at, { mode: "compaction", agent: "compaction", summary: true, finish: "stop" });
			part(summary, { type: "text", text: e.summary ?? "" });
			user(CONTINUE, at, true);
		} else if (e.type === "custom_message" || e.type === "branch_summary") {
			user(e.type === "branch_summary" ? (e.summary ?? "") : textOf(e.content), at, true);
		} else if (e.type === "session_info" && e.name) title = e.name;
	}
	const created = ms(header.timestamp);
	const updated = messages.reduce((t, m) => Math.max(t, m.at), created);
	const session = {
		id: sessionId,
		parentId: null,
		directory: header.cwd,
		title: title ?? `New session - ${new Date(created).toISOString()}`,
		created,
		updated,
	};
	return { session, messages };
}

/** The schema the real OpenCode created, from the fixture (its header set to rollback mode, so no WAL is looked for). */
function schemaOf(engine) {
	const fixture = new Uint8Array(readFileSync(FIXTURE));
	fixture[18] = 1;
	fixture[19] = 1;
	const db = new engine.Database(fixture);
	try {
		return db.exec("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")[0].values.map((r) => r[0]);
	} finally {
		db.close();
	}
}

/** Writes `<dataDir>/opencode.db` holding `sessions` (each as sessionRows returns it, or an iterable of them). */
export async function opencodeDatabase(dataDir, sessions) {
	// Loaded on first use: bench/sync-many.mjs counts the file system calls of lookback's code, imported after its hooks.
	const { loadEngine } = await import("../dist/index.js");
	const engine = await loadEngine();
	const db = new engine.Database();
	for (const sql of schemaOf(engine)) db.run(sql);
	db.run("INSERT INTO project(id, worktree, time_created, time_updated, sandboxes) VALUES ('global', '/', 0, 0, '[]')");
	db.run("BEGIN");
	const addSession = db.prepare(
		`INSERT INTO session(id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 'bench-session', ?, ?, '${VERSION}', ?, ?)`,
	);
	const addMessage = db.prepare("INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)");
	const addPart = db.prepare("INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)");
	let count = 0;
	let jsonBytes = 0;
	for (const { session, messages } of sessions) {
		addSession.run([session.id, session.parentId, session.directory, session.title, session.created, session.updated]);
		for (const m of messages) {
			const info = JSON.stringify(m.info);
			jsonBytes += Buffer.byteLength(info);
			addMessage.run([m.id, session.id, m.at, m.at, info]);
			for (const p of m.parts) {
				const data = JSON.stringify(p.data);
				jsonBytes += Buffer.byteLength(data);
				addPart.run([p.id, m.id, session.id, m.at, m.at, data]);
			}
		}
		count++;
	}
	db.run("COMMIT");
	for (const stmt of [addSession, addMessage, addPart]) stmt.free();
	const image = db.export();
	db.close();
	// WAL mode, as OpenCode sets it (the file as it is after a checkpoint, no -wal beside it).
	image[18] = 2;
	image[19] = 2;
	mkdirSync(dataDir, { recursive: true });
	writeFileSync(join(dataDir, "opencode.db"), image);
	return { sessions: count, jsonBytes };
}

/** Writes the corpus under `out` (OpenCode's data folder `out/opencode`). */
export async function writeOpencode(piSessions, out) {
	const root = join(out, "opencode");
	const rows = function* () {
		for (const file of piSessionFiles(piSessions)) yield sessionRows(file.header, file.entries);
	};
	const { sessions, jsonBytes } = await opencodeDatabase(root, rows());
	// The rows' JSON is what lookback parses (as `opencode export` prints it); the file holds it and SQLite's b-trees.
	return { root, layout: "opencode", sessions, jsonlBytes: jsonBytes };
}
