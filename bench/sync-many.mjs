// No-change sync over many session files: N small sessions in 30 project folders, indexed once into an
// index file opened in place, then synced again with nothing changed (what every search before a command costs).
// node bench/sync-many.mjs [--files 3000] [--agents pi,claude]   prints one JSON line
// With --agents the files are shared out among those agents' folders, each in its own layout (a mixed history).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { fileSource, fileStorage, LookbackIndex, loadEngine } from "../dist/index.js";

const i = process.argv.indexOf("--files");
const count = i >= 0 ? Number(process.argv[i + 1]) : 3000;
const a = process.argv.indexOf("--agents");
const agents = a >= 0 ? process.argv[a + 1].split(",") : ["pi"];
const base = join("bench", "corpus", agents.length === 1 && agents[0] === "pi" ? `many-${count}` : `many-${count}-${agents.join("-")}`);
const root = join(base, "sessions");
/** Each agent's root in its own layout, and how one small session of it is written. */
const LAYOUTS = {
	pi: { path: root, layout: "nested", agent: "pi" },
	claude: { path: join(base, "claude", "projects"), layout: "claude", agent: "claude" },
	// OpenCode's share: written as Pi sessions first, then made into one database (bench/opencode-corpus.mjs).
	opencode: { path: join(base, "opencode"), layout: "opencode", agent: "opencode" },
};
const roots = agents.map((name) => LAYOUTS[name]);
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
if (!existsSync(base)) {
	for (let n = 0; n < count; n++) {
		if (agents[n % agents.length] === "claude") {
			claudeSession(n);
			continue;
		}
		const dir = join(agents[n % agents.length] === "opencode" ? join(base, "opencode-pi") : root, `--home-dev-p${n % 30}--`);
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
	if (agents.includes("opencode"))
		execFileSync(process.execPath, [join("bench", "opencode-corpus.mjs"), join(base, "opencode-pi"), LAYOUTS.opencode.path], {
			stdio: "ignore",
		});
}
const indexPath = join("bench", "out", `${base.split(/[\\/]/).pop()}.db`);
for (const leftover of [indexPath, `${indexPath}.locks`]) rmSync(leftover, { force: true, recursive: true });
const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
const source = fileSource(roots);
const first = await index.sync(source);
const times = [];
for (let r = 0; r < 9; r++) {
	const t = performance.now();
	const report = await index.sync(source);
	times.push(performance.now() - t);
	if (report.filesParsed !== 0 || report.bytesRead !== 0) throw new Error("a no-change sync read files");
}
times.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ files: first.filesSeen, p50: times[4], p95: times[8] })}\n`);
