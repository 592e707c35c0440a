// The other agents' sessions, measured against Pi's in the same run:
//  - indexing throughput per agent: the Pi corpus of --mb written in each agent's format (agent-corpus.mjs), indexed
//    by lookback's wasm engine and by native SQLite (the same core code), goal wasm ≥ 0.6× native as for Pi;
//  - query p50/p95 on a mixed index (the same sessions shared out among every agent, each in its format) against
//    the Pi-only index of them (goal within 10%);
//  - the no-change sync of 15,000 files shared out among every agent's folders against as many Pi files (goal ≤ 1.2×),
//    wall time and CPU time (steadier on a shared machine).
// node bench/agents.mjs [--mb 50] [--reps 10] [--files 15000] [--parts indexing,queries,sync] [--keep: the query indexes stay in bench/out]   (npm run bench runs it; writes bench/out/agents-<mb>mb.json and .md)
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { AGENT_FORMATS, agentCorpus } from "./agent-corpus.mjs";
import { benchCorpus, mostCommonProject } from "./corpus.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : def;
};
const mb = Number(opt("mb", "50"));
const reps = opt("reps", "10");
const files = Number(opt("files", "15000"));
/** Which measurements to take (all by default): indexing, queries, sync. */
const parts = new Set(opt("parts", "indexing,queries,sync").split(","));
mkdirSync(join("bench", "out"), { recursive: true });

function worker(...args) {
	const out = execFileSync(process.execPath, ["--max-old-space-size=8192", "bench/worker.mjs", ...args], {
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	return JSON.parse(out.trim().split("\n").pop());
}

/** The Pi sessions of `dir` shared out among `agents`, one session each in turn: `<dir>-share-<agent>` (hard links). */
function shares(dir, agents) {
	const out = agents.map((agent) => `${dir}-share-${agent}`);
	if (out.every((d) => existsSync(join(d, "sessions")))) return out;
	for (const d of out) rmSync(d, { recursive: true, force: true });
	let n = 0;
	for (const project of readdirSync(join(dir, "sessions")).sort())
		for (const name of readdirSync(join(dir, "sessions", project)).sort()) {
			const to = join(out[n++ % agents.length], "sessions", project);
			mkdirSync(to, { recursive: true });
			linkSync(join(dir, "sessions", project, name), join(to, name));
		}
	return out;
}

const f1 = (x) => (x === undefined ? "—" : x.toFixed(1));
const pi = benchCorpus(mb, { seed: 42 });
const piRoot = { path: join(pi.dir, "sessions"), layout: "nested", agent: "pi" };
const corpora = [{ agent: "pi", roots: [piRoot], jsonlBytes: pi.summary.bytes, diskBytes: pi.summary.bytes }];
for (const agent of AGENT_FORMATS) {
	console.error(`writing the ${mb} MB corpus as ${agent}'s files…`);
	const c = await agentCorpus(pi.dir, agent);
	corpora.push({ agent, roots: [{ path: c.root, layout: c.layout, agent }], jsonlBytes: c.jsonlBytes ?? c.bytes, diskBytes: c.bytes });
}

const indexing = [];
for (const c of parts.has("indexing") ? corpora : []) {
	const run = (engine) => {
		const index = join("bench", "out", `agents-${c.agent}-${engine}.db`);
		const r = worker("build", "--engine", engine, "--roots", JSON.stringify(c.roots), "--sessions", c.roots[0].path, "--index", index);
		for (const leftover of [index, `${index}.locks`]) rmSync(leftover, { force: true, recursive: true });
		return r;
	};
	console.error(`indexing ${c.agent}…`);
	const wasm = run("wasm");
	const native = run("native");
	indexing.push({
		agent: c.agent,
		bytes: c.jsonlBytes,
		diskBytes: c.diskBytes,
		entries: wasm.entries,
		wasm,
		native,
		ratio: native.syncMs / wasm.syncMs,
		cpuRatio: native.syncCpuMs / wasm.syncCpuMs,
	});
}

const everyAgent = ["pi", ...AGENT_FORMATS];
let piOnly = { latencies: [] };
let mixed = { latencies: [] };
if (parts.has("queries")) {
	// Mixed: the same sessions shared out among every agent, each written in its own agent's format.
	const mixedRoots = [];
	for (const [i, dir] of shares(pi.dir, everyAgent).entries()) {
		const agent = everyAgent[i];
		if (agent === "pi") mixedRoots.push({ path: join(dir, "sessions"), layout: "nested", agent });
		else {
			const c = await agentCorpus(dir, agent);
			mixedRoots.push({ path: c.root, layout: c.layout, agent });
		}
	}
	const project = mostCommonProject(join(pi.dir, "sessions"));
	const build = (label, roots) => {
		const index = join("bench", "out", `agents-${label}.db`);
		return {
			index,
			...worker("build", "--engine", "wasm", "--roots", JSON.stringify(roots), "--sessions", roots[0].path, "--index", index),
		};
	};
	console.error("queries on the Pi-only and the mixed index…");
	piOnly = build("pi-only", [piRoot]);
	mixed = build("mixed", mixedRoots);
	// Both indexes in one process, each query on one then the other in turns: the machine's noise falls on both.
	const pair = JSON.parse(
		execFileSync(
			process.execPath,
			["bench/query-pair.mjs", "--a", piOnly.index, "--b", mixed.index, "--reps", reps, "--project", project],
			{
				encoding: "utf8",
				maxBuffer: 64 << 20,
			},
		).trim(),
	);
	piOnly.latencies = pair.a;
	mixed.latencies = pair.b;
	if (!argv.includes("--keep"))
		for (const { index } of [piOnly, mixed])
			for (const leftover of [index, `${index}.locks`]) rmSync(leftover, { force: true, recursive: true });
}

const many = (agents) =>
	JSON.parse(
		execFileSync(process.execPath, ["bench/sync-many.mjs", "--files", String(files), "--agents", agents], { encoding: "utf8" }).trim(),
	);
console.error(`no-change sync of ${files} files…`);
const manyPi = parts.has("sync") ? many("pi") : {};
const manyMixed = parts.has("sync") ? many(everyAgent.join(",")) : {};

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 10);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
/** Files the sync skipped (too large to read whole, …), when any. */
const skippedOf = (build) => {
	const n = Object.values(build.skipped ?? {}).reduce((a, b) => a + b, 0);
	return n > 0 ? ` (${n} files skipped: ${JSON.stringify(build.skipped)})` : "";
};
const callsOf = (r) => (r.calls ? `${r.calls.stat} stats, ${r.calls.readdir} folder listings, ${r.calls.readFile} files read` : "—");
const p50s = (r) => r.latencies.map((q) => q.p50);
const p95s = (r) => r.latencies.map((q) => q.p95);
const perQuery = (key) => median(mixed.latencies.map((q, i) => q[key] / piOnly.latencies[i][key])).toFixed(2);
const lines = [
	`lookback, every agent's sessions: ${date}, ${machine}; the ${mb} MB Pi corpus written in each agent's format`,
	"",
	...(indexing.length === 0
		? []
		: [
				"| agent | JSONL MB (on disk) | entries | wasm index s (CPU s) | native index s (CPU s) | wasm MB/s | wasm / native, wall (CPU) | peak RSS MB |",
				"|---|---|---|---|---|---|---|---|",
				...indexing.map(
					(r) =>
						`| ${r.agent} | ${f1(r.bytes / 1e6)}${r.diskBytes !== r.bytes ? ` (${f1(r.diskBytes / 1e6)})` : ""} | ${r.entries}${skippedOf(r.wasm)} | ${f1(r.wasm.syncMs / 1000)} (${f1(r.wasm.syncCpuMs / 1000)}) | ${f1(r.native.syncMs / 1000)} (${f1(r.native.syncCpuMs / 1000)}) | ${f1(r.bytes / 1e6 / (r.wasm.syncMs / 1000))} | ${r.ratio.toFixed(2)}× (${r.cpuRatio.toFixed(2)}×) | ${f1(r.wasm.peakRssMB)} |`,
				),
				"",
			]),
	...(piOnly.latencies.length === 0
		? []
		: [
				`Queries on a mixed index (the same ${mb} MB of sessions shared out among ${everyAgent.join(", ")}, each in its own format: ${mixed.files} files, ${mixed.entries} entries) against the Pi-only index (${piOnly.files} files, ${piOnly.entries} entries), wasm engine, both in one process, each query on one then the other in turns:`,
				"",
				"| query | Pi-only p50 / p95 ms (CPU p50) | mixed p50 / p95 ms (CPU p50) | sessions found, Pi-only / mixed |",
				"|---|---|---|---|",
				...piOnly.latencies.map((q, i) => {
					const m = mixed.latencies[i];
					return `| ${q.name} | ${f1(q.p50)} / ${f1(q.p95)} (${f1(q.cpuP50)}) | ${f1(m.p50)} / ${f1(m.p95)} (${f1(m.cpuP50)}) | ${q.sessions} / ${m.sessions} |`;
				}),
				"",
				`Median over queries: Pi-only p50 ${f1(median(p50s(piOnly)))} ms, mixed ${f1(median(p50s(mixed)))} ms; p95 ${f1(median(p95s(piOnly)))} ms, mixed ${f1(median(p95s(mixed)))} ms. Mixed against Pi-only, the median of the per-query ratios: p50 ${perQuery("p50")}×, p95 ${perQuery("p95")}×, CPU time p50 ${perQuery("cpuP50")}×.`,
				"",
			]),
	...(manyPi.p50 === undefined
		? []
		: [
				`No-change sync of ${files} files: Pi only p50 ${f1(manyPi.p50)} ms (CPU ${f1(manyPi.cpuP50)} ms); shared among ${everyAgent.join(", ")} p50 ${f1(manyMixed.p50)} ms (CPU ${f1(manyMixed.cpuP50)} ms): ${ratio(manyMixed.p50, manyPi.p50)} wall, ${ratio(manyMixed.cpuP50, manyPi.cpuP50)} CPU; file system calls per sync, Pi only ${callsOf(manyPi)}, shared ${callsOf(manyMixed)}.`,
				"",
			]),
];
const text = lines.join("\n");
console.log(text);
writeFileSync(
	join("bench", "out", `agents-${mb}mb.json`),
	`${JSON.stringify({ date, machine, mb, indexing, piOnly, mixed, manyPi, manyMixed }, null, 2)}\n`,
);
writeFileSync(join("bench", "out", `agents-${mb}mb.md`), `${text}\n`);
