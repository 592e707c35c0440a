// No-change sync over many session files: N small sessions in 30 project folders, indexed once into an
// index file opened in place, then synced again with nothing changed (what every search before a command costs).
// node bench/sync-many.mjs [--files 3000] [--agents pi,claude,codex,gemini,opencode]   prints one JSON line (wall and CPU ms)
// With --agents the files are shared out among those agents' folders, each in its own layout (a mixed history).
import fs, { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { compress, init } from "@bokuweb/zstd-wasm";
import { opencodeDatabase } from "./corpus-opencode.mjs";

/** File system calls made, counted (steady where times are not): folders listed, files stat'ed, files read. */
const calls = { readdir: 0, stat: 0, readFile: 0 };
for (const [name, key] of [
	["readdirSync", "readdir"],
	["statSync", "stat"],
	["readFileSync", "readFile"],
]) {
	const real = fs[name];
	fs[name] = (...args) => {
		calls[key]++;
		return real(...args);
	};
}
syncBuiltinESMExports();
const { fileSource, fileStorage, LookbackIndex, loadEngine } = await import("../dist/index.js");

const i = process.argv.indexOf("--files");
const count = i >= 0 ? Number(process.argv[i + 1]) : 3000;
const a = process.argv.indexOf("--agents");
const agents = a >= 0 ? process.argv[a + 1].split(",") : ["pi"];
const base = join("bench", "corpus", agents.length === 1 && agents[0] === "pi" ? `many-${count}` : `many-${count}-${agents.join("-")}`);
const root = join(base, "sessions");
/** Each agent's root in its own layout; its small sessions are written by `write` (below). A new agent: one entry. */
const LAYOUTS = {
	pi: { path: root, layout: "nested", agent: "pi", write: piSession },
	claude: { path: join(base, "claude", "projects"), layout: "claude", agent: "claude", write: claudeSession },
	codex: { path: join(base, "codex"), layout: "codex", agent: "codex", write: codexSession },
	gemini: { path: join(base, "gemini", "tmp"), layout: "gemini", agent: "gemini", write: geminiSession },
	// OpenCode's share: rows of one database (written after the loop: opencodeDatabase), each session listed by a query.
	opencode: { path: join(base, "opencode"), layout: "opencode", agent: "opencode", write: opencodeSession },
};
for (const name of agents) if (!LAYOUTS[name]) throw new Error(`sync-many: no small-session writer for ${name} (LAYOUTS)`);
const roots = agents.map((name) => ({ path: LAYOUTS[name].path, layout: LAYOUTS[name].layout, agent: name }));
function claudeSession(n) {
	const id = `0000${n.toString(16).padStart(4, "0")}-0000-4000-8000-000000000000`;
	const dir = join(LAYOUTS.claude.path, `-home-dev-p${n % 30}`);
	mkdirSync(dir, { recursive: true });
	const at = { sessionId: id, cwd: `/home/dev/p${n % 30}`, version: "2.1.332", isSidechain: false, timestamp: "2026-11-01T00:00:01Z" };
	const lines = [
		{
			...at,
			type: "user",
			uuid: `${id.slice(0, 24)}00000001`,
			parentUuid: null,
			message: { role: "user", content: `task ${n}: fix the flaky test in module${n % 97}` },
		},
		{
			...at,
			type: "assistant",
			uuid: `${id.slice(0, 24)}00000002`,
			parentUuid: `${id.slice(0, 24)}00000001`,
			message: { id: `msg_${n}`, role: "assistant", content: [{ type: "text", text: `done with task ${n}` }] },
		},
	];
	writeFileSync(join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}
/** A Codex rollout in its dated folder (half a year of days), every other one compressed as Codex does idle ones. */
function codexSession(n) {
	const id = `0000${n.toString(16).padStart(4, "0")}-0000-7000-8000-000000000000`;
	const day = new Date(Date.UTC(2026, 5, 1) + (n % 180) * 86_400_000).toISOString();
	const dir = join(LAYOUTS.codex.path, "sessions", day.slice(0, 4), day.slice(5, 7), day.slice(8, 10));
	mkdirSync(dir, { recursive: true });
	const at = (o) => JSON.stringify({ timestamp: day, ...o });
	const text = `${[
		at({
			type: "session_meta",
			payload: { id, timestamp: day, cwd: `/home/dev/p${n % 30}`, originator: "codex_cli_rs", cli_version: "0.171.0" },
		}),
		at({
			type: "response_item",
			payload: {
				type: "message",
				role: "user",
				content: [{ type: "input_text", text: `task ${n}: fix the flaky test in module${n % 97}` }],
			},
		}),
		at({
			type: "response_item",
			payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: `done with task ${n}` }] },
		}),
	].join("\n")}\n`;
	const name = `rollout-${day.slice(0, 19).replace(/:/g, "-")}-${id}.jsonl`;
	if (n % 2 === 0) writeFileSync(join(dir, `${name}.zst`), compress(new TextEncoder().encode(text), 3));
	else writeFileSync(join(dir, name), text);
}
/** A Gemini CLI chat in its project's folder (a slug folder with `.project_root`). */
function geminiSession(n) {
	const id = `0000${n.toString(16).padStart(4, "0")}-0000-4000-8000-000000000000`;
	const dir = join(LAYOUTS.gemini.path, `p${n % 30}`);
	mkdirSync(join(dir, "chats"), { recursive: true });
	writeFileSync(join(dir, ".project_root"), `/home/dev/p${n % 30}`);
	const at = "2026-11-01T00:00:01.000Z";
	const lines = [
		{ sessionId: id, projectHash: "ab", startTime: at, lastUpdated: at, kind: "main" },
		{ id: `${id}-1`, timestamp: at, type: "user", content: [{ text: `task ${n}: fix the flaky test in module${n % 97}` }] },
		{ id: `${id}-2`, timestamp: at, type: "gemini", content: `done with task ${n}`, model: "gemini-3.1-pro-preview" },
	];
	writeFileSync(
		join(dir, "chats", `session-2026-11-01T00-00-${n.toString(16).padStart(8, "0")}.jsonl`),
		`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
	);
}
/** An OpenCode session: its rows, kept for the one database they all go into. */
const opencodeRows = [];
function opencodeSession(n) {
	const id = `ses_0000${n.toString(16).padStart(6, "0")}bench0000000`;
	const at = Date.UTC(2026, 10, 1) + n;
	const message = (k, info, part) => ({
		id: `msg_${id.slice(4)}${k}`,
		at,
		info: { time: { created: at }, ...info },
		parts: [{ id: `prt_${id.slice(4)}${k}`, data: part }],
	});
	opencodeRows.push({
		session: { id, parentId: null, directory: `/home/dev/p${n % 30}`, title: `task ${n}`, created: at, updated: at },
		messages: [
			message(1, { role: "user", agent: "build" }, { type: "text", text: `task ${n}: fix the flaky test in module${n % 97}` }),
			message(
				2,
				{ role: "assistant", mode: "build", modelID: "m", providerID: "p", finish: "stop" },
				{ type: "text", text: `done with task ${n}` },
			),
		],
	});
}
/** A Pi session in its project's folder. */
function piSession(n) {
	const dir = join(root, `--home-dev-p${n % 30}--`);
	mkdirSync(dir, { recursive: true });
	const id = `0000${n.toString(16).padStart(4, "0")}-0000-7000-8000-000000000000`;
	const lines = [
		{ type: "session", version: 3, id, timestamp: "2026-11-01T00:00:00Z", cwd: `/home/dev/p${n % 30}` },
		{
			type: "message",
			id: "a1",
			parentId: null,
			timestamp: "2026-11-01T00:00:01Z",
			message: { role: "user", content: [{ type: "text", text: `task ${n}: fix the flaky test in module${n % 97}` }], timestamp: 0 },
		},
		{
			type: "message",
			id: "a2",
			parentId: "a1",
			timestamp: "2026-11-01T00:00:02Z",
			message: { role: "assistant", content: [{ type: "text", text: `done with task ${n}` }], timestamp: 0 },
		},
	];
	writeFileSync(join(dir, `2026-11-01T00-00-00-000Z_${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}
if (!existsSync(base)) {
	if (agents.includes("codex")) await init();
	for (let n = 0; n < count; n++) LAYOUTS[agents[n % agents.length]].write(n);
	if (opencodeRows.length > 0) await opencodeDatabase(LAYOUTS.opencode.path, opencodeRows);
}
const indexPath = join("bench", "out", `${base.split(/[\\/]/).pop()}.db`);
for (const leftover of [indexPath, `${indexPath}.locks`]) rmSync(leftover, { force: true, recursive: true });
const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
const source = fileSource(roots);
const first = await index.sync(source);
const times = [];
const cpu = [];
for (const key of Object.keys(calls)) calls[key] = 0;
for (let r = 0; r < 9; r++) {
	const t = performance.now();
	const c = process.cpuUsage();
	const report = await index.sync(source);
	const used = process.cpuUsage(c);
	times.push(performance.now() - t);
	cpu.push((used.user + used.system) / 1000);
	if (report.filesParsed !== 0 || report.bytesRead !== 0) throw new Error("a no-change sync read files");
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
// CPU time (this process's, with its libuv threads' stat calls) is steadier than wall time on a shared machine.
const perSync = Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, v / 9]));
process.stdout.write(`${JSON.stringify({ files: first.filesSeen, p50: times[4], p95: times[8], cpuP50: cpu[4], calls: perSync })}\n`);
