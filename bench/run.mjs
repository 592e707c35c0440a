// npm run bench [-- --mb 50,500 --reps 20]
// For each corpus size: index it with lookback on sql.js (wasm) and on native SQLite (better-sqlite3, the same
// core code and schema), time sync/save/cold start/queries, scan the JSONL as the baseline, and print ratios
// measured in the same run. Writes bench/out/bench-<mb>mb.json.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateCorpus } from "./gen-corpus.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : def;
};
const sizes = opt("mb", "50").split(",").map(Number);
const reps = Number(opt("reps", "20"));
/** "pi" (default) or "omp": which agent's store the corpus imitates. */
const agent = opt("agent", "pi");
const seed = 42;
mkdirSync("bench/out", { recursive: true });

function worker(...args) {
	const out = execFileSync(process.execPath, ["--max-old-space-size=8192", "bench/worker.mjs", ...args, "--agent", agent], { encoding: "utf8", maxBuffer: 64 << 20 });
	return JSON.parse(out.trim().split("\n").pop());
}

function corpus(mb) {
	const dir = join("bench", "corpus", agent === "pi" ? `${mb}mb` : `${mb}mb-${agent}`);
	const summaryPath = join(dir, "corpus.json");
	if (existsSync(summaryPath)) {
		const s = JSON.parse(readFileSync(summaryPath, "utf8"));
		if (s.seed === seed && (s.mb ?? s.targetMb) === mb && (s.agent ?? "pi") === agent) return { dir, summary: s };
	}
	const t = performance.now();
	const summary = generateCorpus({ out: dir, mb, seed, agent });
	console.error(`generated ${mb} MB corpus in ${((performance.now() - t) / 1000).toFixed(1)} s`);
	return { dir, summary };
}

function mostCommonProject(sessions) {
	const counts = readdirSync(sessions).map((d) => [d, readdirSync(join(sessions, d)).length]).sort((a, b) => b[1] - a[1]);
	return counts[0][0].replace(/^--home-dev-/, "").replace(/^-/, "").replace(/--$/, "");
}

function oneShot(indexPath, sessions, query, sync) {
	const times = [];
	for (let i = 0; i < 5; i++) {
		const t = performance.now();
		const r = spawnSync(
			process.execPath,
			["dist/cli.js", "search", query, "--index", indexPath, "--agent-dir", "bench/out/no-agent", "--sessions-dir", sessions, "--only-sessions-dir", ...(sync ? [] : ["--no-sync"]), "--json"],
			{ encoding: "utf8" },
		);
		times.push(performance.now() - t);
		if (r.status !== 0) throw new Error(`lookback search failed: ${r.stderr}`);
	}
	times.sort((a, b) => a - b);
	return times[2];
}

const mb = (b) => b / 1e6;
const f1 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

const results = [];
for (const size of sizes) {
	const { dir, summary } = corpus(size);
	const sessions = join(dir, "sessions");
	const project = mostCommonProject(sessions);
	const tag = agent === "pi" ? `${size}mb` : `${size}mb-${agent}`;
	const wasmDb = join("bench", "out", `${tag}-wasm.db`);
	const nativeDb = join("bench", "out", `${tag}-native.db`);
	console.error(`[${size} MB] building with sql.js…`);
	const wasmBuild = worker("build", "--engine", "wasm", "--sessions", sessions, "--index", wasmDb);
	console.error(`[${size} MB] building with native SQLite…`);
	const nativeBuild = worker("build", "--engine", "native", "--sessions", sessions, "--index", nativeDb);
	console.error(`[${size} MB] queries…`);
	const wasmQ = worker("query", "--engine", "wasm", "--sessions", sessions, "--index", wasmDb, "--reps", String(reps), "--project", project);
	const nativeQ = worker("query", "--engine", "native", "--sessions", sessions, "--index", nativeDb, "--reps", String(reps), "--project", project);
	console.error(`[${size} MB] plain scan…`);
	const scan = worker("scan", "--sessions", sessions, "--reps", "3", "--project", project);
	console.error(`[${size} MB] one-shot CLI…`);
	const oneShotSync = oneShot(wasmDb, sessions, "zanzibarRetryPolicy", true);
	const oneShotNoSync = oneShot(wasmDb, sessions, "zanzibarRetryPolicy", false);
	results.push({ size, summary, project, wasmBuild, nativeBuild, wasmQ, nativeQ, scan, oneShotSync, oneShotNoSync });
}

console.error("no-change sync of 3,000 files…");
const many = JSON.parse(execFileSync(process.execPath, ["bench/sync-many.mjs", "--files", "3000"], { encoding: "utf8" }).trim());

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 10);
const lines = [`lookback benchmark, ${date}, ${machine}`, ""];
for (const r of results) {
	const w = r.wasmBuild;
	const n = r.nativeBuild;
	lines.push(`## ${r.size} MB of ${agent === "pi" ? "Pi" : "omp"} JSONL: ${w.files} files, ${w.entries} entries indexed, ${f1(mb(w.textBytes))} MB of indexed text`);
	lines.push("");
	lines.push("| | lookback (sql.js) | native SQLite FTS5 | lookback/native |");
	lines.push("|---|---|---|---|");
	lines.push(`| full index, wall s | ${f1(w.syncMs / 1000)} | ${f1(n.syncMs / 1000)} | ${f1(w.syncMs / n.syncMs)} |`);
	lines.push(`| MB/s of JSONL | ${f1(mb(w.jsonlBytes) / (w.syncMs / 1000))} | ${f1(mb(n.jsonlBytes) / (n.syncMs / 1000))} | throughput ${f1(n.syncMs / w.syncMs)}x native |`);
	lines.push(`| MB/s of indexed text | ${f1(mb(w.textBytes) / (w.syncMs / 1000))} | ${f1(mb(n.textBytes) / (n.syncMs / 1000))} | |`);
	lines.push(`| peak memory MB (build) | ${f1(w.peakRssMB)} | ${f1(n.peakRssMB)} | |`);
	lines.push(`| index MB / corpus | ${f1(mb(w.indexBytes))} / ${(100 * w.indexBytes / w.jsonlBytes).toFixed(1)}% | ${f1(mb(n.indexBytes))} / ${(100 * n.indexBytes / n.jsonlBytes).toFixed(1)}% | |`);
	lines.push(`| save (export + write) ms | ${f1(w.saveMs)} | ${f1(n.saveMs)} | ${f1(w.saveMs / n.saveMs)} |`);
	lines.push(`| cold start (engine + load index) ms | ${f1(r.wasmQ.coldStartMs)} | ${f1(r.nativeQ.coldStartMs)} | ${f1(r.wasmQ.coldStartMs / r.nativeQ.coldStartMs)} |`);
	lines.push(`| no-change sync of ${r.wasmQ.filesWalked} files, p50 ms | ${f1(r.wasmQ.noChangeSync.p50)} | ${f1(r.nativeQ.noChangeSync.p50)} | |`);
	lines.push(`| sync after appending to 10 files, ms (bytes read / appended) | ${f1(r.wasmQ.append.ms)} (${r.wasmQ.append.bytesRead}/${r.wasmQ.append.appendedBytes}) | ${f1(r.nativeQ.append.ms)} | |`);
	lines.push(`| one-shot \`lookback search\`, process start to exit, ms | ${f1(r.oneShotSync)} (with sync), ${f1(r.oneShotNoSync)} (--no-sync) | | |`);
	lines.push("");
	lines.push("| query | sessions | lookback p50 / p95 ms | native p50 / p95 ms | scan p50 ms | lookback/native | scan/lookback |");
	lines.push("|---|---|---|---|---|---|---|");
	r.wasmQ.latencies.forEach((q, i) => {
		const nq = r.nativeQ.latencies[i];
		const sq = r.scan.latencies[i];
		lines.push(
			`| ${q.name} \`${q.query}\` | ${q.sessions}${q.totalSessions > q.sessions ? ` of ${q.totalSessions}` : ""} | ${f1(q.p50)} / ${f1(q.p95)} | ${f1(nq.p50)} / ${f1(nq.p95)} | ${f1(sq.p50)} | ${f1(q.p50 / nq.p50)} | ${f1(sq.p50 / q.p50)} |`,
		);
	});
	const p50s = r.wasmQ.latencies.map((q) => q.p50).sort((a, b) => a - b);
	const p95s = r.wasmQ.latencies.map((q) => q.p95).sort((a, b) => a - b);
	lines.push("");
	lines.push(`median over queries: p50 ${f1(p50s[Math.floor(p50s.length / 2)])} ms, worst p95 ${f1(p95s[p95s.length - 1])} ms`);
	lines.push("");
}
lines.push(`## No-change sync of ${many.files} small session files (30 folders): p50 ${f1(many.p50)} ms, p95 ${f1(many.p95)} ms`);
lines.push("");
const text = lines.join("\n");
console.log(text);
for (const r of results) writeFileSync(join("bench", "out", `bench-${r.size}mb${agent === "pi" ? "" : `-${agent}`}.json`), `${JSON.stringify({ date, machine, ...r, manyFilesSync: many }, null, 2)}\n`);
writeFileSync(join("bench", "out", agent === "pi" ? "bench.md" : `bench-${agent}.md`), `${text}\n`);
