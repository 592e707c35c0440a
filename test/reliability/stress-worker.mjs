// One process of the lock stress test (stress.test.ts), on the built library.
// Run by Node 20 (wasm), Node 22 (node:sqlite) or Bun (bun:sqlite).
//   node stress-worker.mjs writer INDEX SESSIONS WORKDIR   adds a session, syncs, logs the marker once committed; until killed
//   node stress-worker.mjs reader INDEX SESSIONS WORKDIR SECONDS   reads and checks a consistent view; logs every failure
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { chooseEngine, fileSource, fileStorage, LookbackIndex } from "../../dist/index.js";

const [mode, indexPath, sessions, work, secondsText] = process.argv.slice(2);
// The engine comes from LOOKBACK_ENGINE: the test mixes wasm with node:sqlite and bun:sqlite processes.
const sql = await chooseEngine(process.env.LOOKBACK_ENGINE ?? "wasm");
const source = fileSource([{ path: sessions, layout: "nested" }]);
const filler = "lorem ipsum dolor sit amet consectetur adipiscing elit ".repeat(60);

function logLine(file, line) {
	const fd = openSync(file, "a");
	writeSync(fd, `${line}\n`);
	fsyncSync(fd);
	closeSync(fd);
}

if (mode === "writer") {
	const dir = join(sessions, `--home-dev-stress-${process.pid}--`);
	mkdirSync(dir, { recursive: true });
	const index = await LookbackIndex.open({ sql, storage: fileStorage(indexPath) });
	for (let round = 0; ; round++) {
		const marker = `w${process.pid}x${round}`;
		const now = new Date().toISOString();
		const lines = [
			{ type: "session", version: 3, id: marker, timestamp: now, cwd: "/home/dev/stress" },
			{
				type: "message",
				id: "m1",
				parentId: null,
				timestamp: now,
				message: { role: "user", content: [{ type: "text", text: `stressmark ${marker} ${filler}` }], timestamp: 0 },
			},
			{
				type: "message",
				id: "m2",
				parentId: "m1",
				timestamp: now,
				message: { role: "assistant", content: [{ type: "text", text: `${filler} ${round}` }], timestamp: 0 },
			},
		];
		// Written aside and renamed in, so that a writer killed here never leaves half a session.
		const file = join(dir, `2026-11-30T00-00-00-000Z_${marker}.jsonl`);
		writeFileSync(join(work, `${marker}.part`), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		renameSync(join(work, `${marker}.part`), file);
		const report = await index.sync(source);
		const failed = report.warnings.find((w) => w.kind === "sync-failed");
		if (failed) appendFileSync(join(work, "errors.log"), `writer ${process.pid}: ${JSON.stringify(failed)}\n`);
		else logLine(join(work, "committed.log"), marker);
	}
} else {
	const until = Date.now() + Number(secondsText) * 1000;
	const log = join(work, `reader-${process.pid}.log`);
	let index;
	let reads = 0;
	let lastSessions = 0;
	while (Date.now() < until) {
		try {
			index ??= await LookbackIndex.open({ sql, storage: fileStorage(indexPath) });
			const [sessionsCount, marked] = index.reading((db) => [
				db.exec("SELECT count(*) FROM sessions WHERE cwd = '/home/dev/stress'")[0].values[0][0],
				db.exec("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'stressmark'")[0].values[0][0],
			]);
			// One committed session is one marked message: a view with more of one than the other is torn.
			if (sessionsCount !== marked) appendFileSync(log, `torn: ${sessionsCount} sessions, ${marked} marked\n`);
			if (sessionsCount < lastSessions) appendFileSync(log, `went back: ${lastSessions} -> ${sessionsCount}\n`);
			lastSessions = sessionsCount;
			index.search({ query: "stressmark lorem", limit: 5 });
			reads++;
		} catch (error) {
			appendFileSync(log, `error: ${error instanceof Error ? error.message : String(error)}\n`);
		}
	}
	appendFileSync(join(work, "reads.log"), `${reads}\n`);
	index?.close();
}
