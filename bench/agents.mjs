// The other agents' sessions, measured against Pi's in the same run:
//  - indexing throughput per agent: the Pi corpus of --mb written in each agent's format (agent-corpus.mjs), indexed
//    by lookback's wasm engine and by native SQLite (the same core code), goal wasm ≥ 0.6× native as for Pi;
//  - query p50/p95 on a mixed index (half Pi, half each other agent, other text) against the Pi-only index of the
//    same size (goal within 10%);
//  - the no-change sync of 15,000 files shared out among every agent's folders against as many Pi files (goal ≤ 1.2×).
// node bench/agents.mjs [--mb 50] [--reps 10]   (npm run bench runs it; writes bench/out/agents-<mb>mb.json and .md)
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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
mkdirSync(join("bench", "out"), { recursive: true });

function worker(...args) {
	const out = execFileSync(process.execPath, ["--max-old-space-size=8192", "bench/worker.mjs", ...args], {
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	return JSON.parse(out.trim().split("\n").pop());
}

const f1 = (x) => (x === undefined ? "—" : x.toFixed(1));
const pi = benchCorpus(mb, { seed: 42 });
const piRoot = { path: join(pi.dir, "sessions"), layout: "nested", agent: "pi" };
const corpora = [{ agent: "pi", roots: [piRoot], bytes: pi.summary.bytes }];
for (const agent of AGENT_FORMATS) {
	console.error(`writing the ${mb} MB corpus as ${agent}'s files…`);
	const c = agentCorpus(pi.dir, agent);
	corpora.push({ agent, roots: [{ path: c.root, layout: c.layout, agent }], bytes: c.bytes });
}

const indexing = [];
for (const c of corpora) {
	const run = (engine) => {
		const index = join("bench", "out", `agents-${c.agent}-${engine}.db`);
		const r = worker("build", "--engine", engine, "--roots", JSON.stringify(c.roots), "--sessions", c.roots[0].path, "--index", index);
		for (const leftover of [index, `${index}.locks`]) rmSync(leftover, { force: true, recursive: true });
		return r;
	};
	console.error(`indexing ${c.agent}…`);
	const wasm = run("wasm");
	const native = run("native");
	indexing.push({ agent: c.agent, bytes: wasm.jsonlBytes, entries: wasm.entries, wasm, native, ratio: native.syncMs / wasm.syncMs });
}

// Mixed: half of the size as Pi's sessions, the other half shared by the other agents, from another seed's text.
const half = Math.max(1, Math.round(mb / 2));
const mixedRoots = [{ path: join(benchCorpus(half, { seed: 42 }).dir, "sessions"), layout: "nested", agent: "pi" }];
const other = benchCorpus(half, { seed: 43 });
for (const agent of AGENT_FORMATS) {
	const c = agentCorpus(other.dir, agent);
	mixedRoots.push({ path: c.root, layout: c.layout, agent });
}
const project = mostCommonProject(join(pi.dir, "sessions"));
const queryOn = (label, roots) => {
	const index = join("bench", "out", `agents-${label}.db`);
	worker("build", "--engine", "wasm", "--roots", JSON.stringify(roots), "--sessions", roots[0].path, "--index", index);
	const r = worker(
		"query",
		"--engine",
		"wasm",
		"--roots",
		JSON.stringify(roots),
		"--sessions",
		roots[0].path,
		"--index",
		index,
		"--reps",
		reps,
		"--project",
		project,
		"--append",
		"no",
	);
	for (const leftover of [index, `${index}.locks`]) rmSync(leftover, { force: true, recursive: true });
	return r;
};
console.error("queries on the Pi-only and the mixed index…");
const piOnly = queryOn("pi-only", [piRoot]);
const mixed = queryOn("mixed", mixedRoots);

const many = (agents) =>
	JSON.parse(
		execFileSync(process.execPath, ["bench/sync-many.mjs", "--files", String(files), "--agents", agents], { encoding: "utf8" }).trim(),
	);
console.error(`no-change sync of ${files} files…`);
const manyPi = many("pi");
const manyMixed = many(["pi", ...AGENT_FORMATS].join(","));

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 10);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lines = [
	`lookback, every agent's sessions: ${date}, ${machine}; the ${mb} MB Pi corpus written in each agent's format`,
	"",
	"| agent | JSONL MB | entries | wasm index s | native index s | wasm MB/s | wasm / native | peak RSS MB |",
	"|---|---|---|---|---|---|---|---|",
	...indexing.map(
		(r) =>
			`| ${r.agent} | ${f1(r.bytes / 1e6)} | ${r.entries} | ${f1(r.wasm.syncMs / 1000)} | ${f1(r.native.syncMs / 1000)} | ${f1(r.bytes / 1e6 / (r.wasm.syncMs / 1000))} | ${r.ratio.toFixed(2)}× | ${f1(r.wasm.peakRssMB)} |`,
	),
	"",
	`Queries on a mixed index (${half} MB of Pi sessions + ${half} MB of other text as ${AGENT_FORMATS.join(", ")} sessions) against the ${mb} MB Pi-only index, wasm engine:`,
	"",
	"| query | Pi-only p50 / p95 ms | mixed p50 / p95 ms |",
	"|---|---|---|",
	...piOnly.latencies.map((q, i) => {
		const m = mixed.latencies[i];
		return `| ${q.name} | ${f1(q.p50)} / ${f1(q.p95)} | ${f1(m.p50)} / ${f1(m.p95)} |`;
	}),
	"",
	`Median over queries: Pi-only p50 ${f1(median(piOnly.latencies.map((q) => q.p50)))} ms, mixed ${f1(median(mixed.latencies.map((q) => q.p50)))} ms.  `,
	`No-change sync of ${files} files: Pi only p50 ${f1(manyPi.p50)} ms; shared among ${["pi", ...AGENT_FORMATS].join(", ")} p50 ${f1(manyMixed.p50)} ms (${(manyMixed.p50 / manyPi.p50).toFixed(2)}×).`,
	"",
];
const text = lines.join("\n");
console.log(text);
writeFileSync(
	join("bench", "out", `agents-${mb}mb.json`),
	`${JSON.stringify({ date, machine, mb, indexing, piOnly, mixed, manyPi, manyMixed }, null, 2)}\n`,
);
writeFileSync(join("bench", "out", `agents-${mb}mb.md`), `${text}\n`);
