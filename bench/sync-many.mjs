// No-change sync over many session files: N small sessions in 30 project folders, indexed once into an
// index file opened in place, then synced again with nothing changed (what every search before a command costs).
// node bench/sync-many.mjs [--files 3000]   prints one JSON line
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { fileSource, fileStorage, LookbackIndex, loadEngine } from "../dist/index.js";

const i = process.argv.indexOf("--files");
const count = i >= 0 ? Number(process.argv[i + 1]) : 3000;
const root = join("bench", "corpus", `many-${count}`, "sessions");
if (!existsSync(root)) {
	for (let n = 0; n < count; n++) {
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
}
const indexPath = join("bench", "out", `many-${count}.db`);
for (const leftover of [indexPath, `${indexPath}.locks`]) rmSync(leftover, { force: true, recursive: true });
const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
const source = fileSource([{ path: root, layout: "nested" }]);
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
