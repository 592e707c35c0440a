// `lookback usage` against the bench corpus of one size, for developing it and for the lead's big runs:
//   npm run bench:usage -- --mb 50 [--reps 5] [--index FILE]
// Builds the corpus's index with `lookback index` on the wasm engine if it is not there (bench/out/<mb>mb-wasm.db, the
// index run.mjs builds), then times one-shot processes of `lookback usage --by day` (and the other groupings) on the
// wasm engine with --no-sync and with a no-change sync, and counts the rows the report reads. Prints one JSON line.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { namedArgs } from "./args.mjs";
import { benchCorpus } from "./corpus.mjs";
import { stats } from "./stats.mjs";

const args = namedArgs(process.argv.slice(2));
const mb = Number(args.mb ?? 50);
const reps = Number(args.reps ?? 5);
const sessions = resolve(join(benchCorpus(mb).dir, "sessions"));
const indexPath = resolve(args.index ?? join("bench", "out", `${mb}mb-wasm.db`));
const CLI = resolve("dist", "cli.js");
const where = ["--index", indexPath, "--sessions-dir", sessions, "--only-sessions-dir", "--agent-dir", resolve("bench", "out", "no-agent")];
mkdirSync(join("bench", "out"), { recursive: true });
if (!existsSync(indexPath)) {
	console.error(`indexing the ${mb} MB corpus into ${indexPath}…`);
	execFileSync(process.execPath, [CLI, "index", "--engine", "wasm", ...where], { stdio: ["ignore", "ignore", "inherit"] });
}

function oneShot(extra) {
	const times = [];
	let out = "";
	for (let i = 0; i <= reps; i++) {
		const t = performance.now();
		const r = spawnSync(process.execPath, [CLI, "usage", "--engine", "wasm", ...where, ...extra], { encoding: "utf8" });
		if (r.status !== 0) throw new Error(r.stderr);
		if (i > 0) times.push(performance.now() - t);
		out = r.stdout;
	}
	return { ...stats(times), out };
}

const noSync = oneShot(["--by", "day", "--no-sync", "--json"]);
const report = JSON.parse(noSync.out);
const withSync = oneShot(["--by", "day", "--json"]);
const groupings = {};
for (const by of ["month", "project", "model", "session"]) groupings[by] = oneShot(["--by", by, "--no-sync", "--json"]).p50;
const rows = JSON.parse(
	execFileSync(
		process.execPath,
		[
			"-e",
			`
		const S = require("sql.js"); const fs = require("fs");
		S().then((sql) => { const db = new sql.Database(fs.readFileSync(${JSON.stringify(indexPath)}));
		const n = (q) => db.exec(q)[0].values[0][0];
		console.log(JSON.stringify({ usage: n("SELECT count(*) FROM usage"), usageHours: n("SELECT count(*) FROM usage_hours"), sessions: n("SELECT count(*) FROM sessions") })); });`,
		],
		{ encoding: "utf8" },
	),
);
process.stdout.write(
	`${JSON.stringify({
		mb,
		indexBytes: statSync(indexPath).size,
		rows,
		days: report.rows.length,
		total: report.total,
		byDay: { noSyncMs: { p50: noSync.p50, p95: noSync.p95 }, syncMs: { p50: withSync.p50, p95: withSync.p95 } },
		otherGroupingsNoSyncP50Ms: groupings,
	})}\n`,
);
