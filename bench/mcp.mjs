// npm run bench:mcp [-- --mb 20 --reps 20 --keep-index]
// `lookback mcp` against Node and the library on one corpus (bench/corpus/<mb>mb, generated once):
// - server start → `tools/list` answered (a raw JSON-RPC client on the process's pipes: spawn, initialize,
//   initialized and tools/list written at once, the clock stopped by the tools/list response), against
//   `node -e 0` spawned and awaited the same way;
// - a search round trip (tools/call search_sessions, the benchmark's query set, p50 of each query's runs)
//   against the same search through the library in this process: `index.search`, and `discover` + `boundedJson`
//   (what the tool runs), and those after `index.sync`, on the index opened as the server opens it
//   (`openNodeIndex` with the same options: the same session roots, archive setting and engine); both
//   differences are printed. The server brings its index up to date before a search (a session written just
//   before it is found) unless its watched session folders say nothing changed since a sync that saw everything:
//   here nothing changes between the searches, so most run without a sync, and the count is printed
//   (index_status's `watch.syncsSkipped`). The indexer's own figure for the syncs that ran (`lastSyncReport.durationMs`)
//   tells a sync from its messages. The server's search and the library's discover + budget are taken in turn
//   (the order swapped every run), the differences per query; then, with one session grown by a message before
//   each search, the server's search against the library's sync + discover + budget.
// --keep-index uses the index an earlier run left in bench/out (built only when missing): the comparison of two
// builds on one machine in turn, without three minutes of indexing before each.
// Writes bench/out/mcp-<mb>mb.json and prints a table.
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { core, openNodeIndex } from "../dist/index.js";
import { benchCorpus, mostCommonProject } from "./corpus.mjs";
import { rawMcpServer } from "./mcp-raw.mjs";
import { benchQueries } from "./queries.mjs";

// The index alone: the lookback processes this starts keep no archive (run.mjs measures it on its own).
process.env.LOOKBACK_ARCHIVE = "off";

const argv = process.argv.slice(2);
const opt = (name, def) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : def;
};
const mb = Number(opt("mb", "20"));
const reps = Number(opt("reps", "20"));
const keepIndex = argv.includes("--keep-index");
mkdirSync("bench/out", { recursive: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f1 = (x) => (Number.isNaN(x) ? "–" : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));

const { dir } = benchCorpus(mb, { seed: 42 });
const sessions = resolve(dir, "sessions");
const indexPath = resolve("bench", "out", `mcp-${mb}mb.db`);
const nowhere = resolve("bench", "out", "no-agent");
/**
 * One session of this run's own, in a second root beside the corpus (which is never written): it grows by a
 * message before each search of the last part, as the calling agent's session does between its searches.
 */
const live = resolve("bench", "out", "mcp-live", "sessions");
const liveFile = join(live, "--home-dev-live--", "2026-12-01T10-00-00-000Z_live.jsonl");
let liveMessages = 0;
const liveLine = (i) =>
	JSON.stringify({
		type: "message",
		id: `m${i}`,
		parentId: i === 0 ? null : `m${i - 1}`,
		timestamp: new Date(Date.parse("2026-12-01T10:00:00.000Z") + i * 1000).toISOString(),
		message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text: `live message ${i} about the retry policy` }] },
	});
rmSync(join(live, ".."), { recursive: true, force: true });
mkdirSync(dirname(liveFile), { recursive: true });
writeFileSync(
	liveFile,
	`${JSON.stringify({ type: "session", version: 3, id: "live", timestamp: "2026-12-01T10:00:00.000Z", cwd: "/home/dev/live" })}\n${liveLine(liveMessages++)}\n`,
);
const grow = () => appendFileSync(liveFile, `${liveLine(liveMessages++)}\n`);
const lookbackArgs = [
	"--index",
	indexPath,
	"--agent-dir",
	nowhere,
	"--omp-agent-dir",
	nowhere,
	"--sessions-dir",
	sessions,
	"--sessions-dir",
	live,
	"--only-sessions-dir",
];
/** The options the server's command line makes of `lookbackArgs` (src/cli/main.ts), for the library's side. */
const serverOptions = {
	indexPath,
	agentDir: nowhere,
	ompAgentDir: nowhere,
	sessionsDirs: [sessions, live],
	onlySessionsDirs: true,
};
if (!keepIndex || !existsSync(indexPath)) {
	rmSync(indexPath, { force: true });
	rmSync(`${indexPath}.locks`, { recursive: true, force: true });
}
console.error(`[${mb} MB] indexing…`);
execFileSync(process.execPath, ["dist/cli.js", "index", ...lookbackArgs], { stdio: "inherit" });
const loadBefore = loadavg();

const rawServer = () => rawMcpServer("dist/cli.js", lookbackArgs);

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

/**
 * Spawn → tools/list answered, wall time; and the CPU time (user + sys, /usr/bin/time) of a server that is sent
 * initialize and tools/list and then its stdin's end, so it exits once it has answered: on a shared machine the
 * CPU time moves less with the load than the wall time does. No `initialized` is sent, so no first sync starts.
 */
async function startToList() {
	const t = performance.now();
	const child = spawn("/usr/bin/time", ["-f", "CPU %U %S", process.execPath, "dist/cli.js", "mcp", ...lookbackArgs], {
		stdio: ["pipe", "pipe", "pipe"],
	});
	let out = "";
	let err = "";
	child.stderr.on("data", (c) => (err += c));
	const exited = new Promise((resolve) => child.on("exit", resolve));
	const listed = new Promise((resolve) =>
		child.stdout.on("data", (c) => {
			out += c;
			if (out.includes('"id":2')) resolve();
		}),
	);
	const line = (m) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;
	child.stdin.write(line({ id: 1, method: "initialize", params: INIT }) + line({ id: 2, method: "tools/list", params: {} }));
	await listed;
	const ms = performance.now() - t;
	child.stdin.end();
	await exited;
	if (!/"name":"index_status"/.test(out)) throw new Error("tools/list did not list the tools");
	const [, user, sys] = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(err) ?? [];
	return { ms, cpuMs: (Number(user) + Number(sys)) * 1000 };
}

async function nodeStart() {
	const t = performance.now();
	let err = "";
	const child = spawn("/usr/bin/time", ["-f", "CPU %U %S", process.execPath, "-e", "0"], { stdio: ["ignore", "ignore", "pipe"] });
	child.stderr.on("data", (c) => (err += c));
	await new Promise((resolve) => child.on("exit", resolve));
	const [, user, sys] = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(err) ?? [];
	return { ms: performance.now() - t, cpuMs: (Number(user) + Number(sys)) * 1000 };
}

const starts = { node: [], mcp: [] };
for (let i = 0; i < Math.max(5, reps); i++) {
	starts.node.push(await nodeStart());
	starts.mcp.push(await startToList());
}

// Round trips on one warm server, its index synced (index_status "ready").
const server = rawServer();
await server.request("initialize", INIT);
server.notify("notifications/initialized");
for (let i = 0; i < 600; i++) {
	const status = JSON.parse((await server.request("tools/call", { name: "index_status", arguments: {} })).result.content[0].text);
	if (status.state === "ready") break;
	await new Promise((r) => setTimeout(r, 50));
}
const queries = benchQueries({ project: mostCommonProject(sessions) });
const request = (q) => ({ query: q.query, ...(q.since ? { since: q.since } : {}), ...(q.project ? { project: q.project } : {}) });

// The index, its source (roots and archive) and its session files as the server opens them.
const { index, source, files } = await openNodeIndex(serverOptions);
// Both sides run the whole query set twice first: V8 optimises the engine's wasm in the background over the
// first few hundred milliseconds of searches, in the server and in this process alike.
for (let round = 0; round < 2; round++) {
	for (const q of queries) {
		await server.request("tools/call", { name: "search_sessions", arguments: request(q) });
		core.boundedJson(core.discover(index, request(q), files));
	}
}
/**
 * CPU time so far of a process and its descendants alive now (all their threads), from /proc: user + sys clock
 * ticks, in ms. The server is the bin's launcher on Node 20, the command in its child, the sync in the command's
 * indexer process: all of it is the server's work.
 */
function processCpuMs(pid) {
	const procs = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
			procs.push({ pid: Number(name), ppid: Number(fields[1]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 });
		} catch {
			// gone meanwhile
		}
	}
	const tree = new Set([pid]);
	for (let grew = true; grew; ) {
		grew = false;
		for (const p of procs)
			if (!tree.has(p.pid) && tree.has(p.ppid)) {
				tree.add(p.pid);
				grew = true;
			}
	}
	return procs.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.ms, 0);
}
const cpu = { server: -processCpuMs(server.pid), library: 0, calls: 0 };
/** Searches the server answered without a sync (index_status `watch.syncsSkipped`: its session folders watched, nothing changed). */
const statusOf = async () =>
	JSON.parse((await server.request("tools/call", { name: "index_status", arguments: {} })).result.content[0].text);
const skips = { before: (await statusOf()).watch?.syncsSkipped ?? 0, searches: 0 };
skips.last = skips.before;
const rows = [];
for (const q of queries) {
	const times = { mcp: [], indexerSync: [], search: [], reply: [], syncReply: [] };
	/**
	 * The server's search and the library's discover + budget in turn, the order swapped every run, nothing else
	 * between them: in one fixed order of all four measurements the library's discover + budget always came right
	 * after its own search of the same query, and the server's search after the library's sync (a walk of every
	 * file in this process), which left the processor's caches to the library. The library's search and its sync +
	 * discover + budget are measured after, on their own.
	 */
	const [mcpStep, searchStep, replyStep, syncReplyStep] = [
		async () => {
			const t = performance.now();
			const answer = await server.request("tools/call", { name: "search_sessions", arguments: request(q) });
			times.mcp.push(performance.now() - t);
			if (answer.error || answer.result.isError) throw new Error(`${q.name}: ${JSON.stringify(answer.error ?? answer.result.content)}`);
			const status = await statusOf();
			const skipped = status.watch?.syncsSkipped ?? 0;
			// The indexer's figure of the sync this search ran, when it ran one.
			if (skipped === skips.last) times.indexerSync.push(status.lastSyncReport?.durationMs ?? Number.NaN);
			skips.last = skipped;
			skips.searches++;
		},
		async () => {
			const t = performance.now();
			index.search({ ...request(q), readRange: files.readRange });
			times.search.push(performance.now() - t);
		},
		async () => {
			const t = performance.now();
			core.boundedJson(core.discover(index, request(q), files));
			times.reply.push(performance.now() - t);
		},
		async () => {
			const t = performance.now();
			const before = process.cpuUsage();
			await index.sync(source);
			core.boundedJson(core.discover(index, request(q), files));
			times.syncReply.push(performance.now() - t);
			const used = process.cpuUsage(before);
			cpu.library += (used.user + used.system) / 1000;
			cpu.calls++;
		},
	];
	for (let r = 0; r < reps; r++) for (const step of r % 2 ? [replyStep, mcpStep] : [mcpStep, replyStep]) await step();
	for (let r = 0; r < reps; r++) await searchStep();
	for (let r = 0; r < reps; r++) await syncReplyStep();
	rows.push({
		name: q.name,
		mcp: median(times.mcp),
		indexerSync: times.indexerSync.length ? median(times.indexerSync) : Number.NaN,
		search: median(times.search),
		reply: median(times.reply),
		syncReply: median(times.syncReply),
	});
}
cpu.server += processCpuMs(server.pid);

// One session grown before each search, on both sides: the server's sync stats that file again (its folders
// watched), the library's walks every folder; both then read the new message.
const grownReps = Math.max(3, Math.ceil(reps / 2));
const grown = { mcp: [], syncReply: [], changedFileSyncs: -((await statusOf()).watch?.changedFileSyncs ?? 0), searches: 0 };
for (const q of queries) {
	const times = { mcp: [], syncReply: [] };
	for (let r = 0; r < grownReps; r++) {
		grow();
		let t = performance.now();
		const answer = await server.request("tools/call", { name: "search_sessions", arguments: request(q) });
		times.mcp.push(performance.now() - t);
		if (answer.error || answer.result.isError) throw new Error(`${q.name}: ${JSON.stringify(answer.error ?? answer.result.content)}`);
		grown.searches++;
		grow();
		t = performance.now();
		await index.sync(source);
		core.boundedJson(core.discover(index, request(q), files));
		times.syncReply.push(performance.now() - t);
	}
	grown.mcp.push(median(times.mcp));
	grown.syncReply.push(median(times.syncReply));
}
grown.changedFileSyncs += (await statusOf()).watch?.changedFileSyncs ?? 0;
const loadAfter = loadavg();
await server.close();
index.close();

const result = {
	mb,
	reps,
	node: process.version,
	cpus: cpus().length,
	cpu: cpus()[0]?.model,
	loadAverage: { before: loadBefore, after: loadAfter },
	start: {
		nodeMs: median(starts.node.map((x) => x.ms)),
		nodeCpuMs: median(starts.node.map((x) => x.cpuMs)),
		mcpToolsListMs: median(starts.mcp.map((x) => x.ms)),
		mcpCpuMs: median(starts.mcp.map((x) => x.cpuMs)),
		runs: starts.mcp.length,
	},
	cpuPerSearch: { serverMs: cpu.server / cpu.calls, librarySyncReplyMs: cpu.library / cpu.calls, calls: cpu.calls },
	searchesWithoutSync: { count: skips.last - skips.before, of: skips.searches },
	grown: {
		reps: grownReps,
		mcpP50: median(grown.mcp),
		syncReplyP50: median(grown.syncReply),
		changedFileSyncs: grown.changedFileSyncs,
		searches: grown.searches,
	},
	search: {
		rows,
		mcpP50: median(rows.map((r) => r.mcp)),
		indexerSyncP50: median(rows.map((r) => r.indexerSync).filter((x) => !Number.isNaN(x))) ?? Number.NaN,
		searchP50: median(rows.map((r) => r.search)),
		replyP50: median(rows.map((r) => r.reply)),
		syncReplyP50: median(rows.map((r) => r.syncReply)),
	},
};
const m = result.search;
m.overReplyMs = m.mcpP50 - m.replyP50;
m.overSyncReplyMs = m.mcpP50 - m.syncReplyP50;
// The medians above are of different queries in each column: the median over the queries of each query's own
// difference compares a query with itself.
m.overReplyPerQueryMs = median(rows.map((r) => r.mcp - r.reply));
m.overSyncReplyPerQueryMs = median(rows.map((r) => r.mcp - r.syncReply));
writeFileSync(join("bench", "out", `mcp-${mb}mb.json`), `${JSON.stringify(result, null, 1)}\n`);
const s = result.start;
const load = (l) => l.map((x) => x.toFixed(2)).join(", ");
console.log(
	`lookback mcp, ${mb} MB corpus, Node ${process.version}, ${cpus().length} CPUs (${result.cpu}); medians of ${s.runs} starts, ${reps} runs per query; load average ${load(loadBefore)} before the runs, ${load(loadAfter)} after`,
);
console.log("");
console.log("| | wall ms | CPU ms (user + sys) |");
console.log("|---|---|---|");
console.log(`| \`node -e 0\`, spawn → exit | ${f1(s.nodeMs)} | ${f1(s.nodeCpuMs)} |`);
console.log(
	`| \`lookback mcp\`, spawn → tools/list answered (CPU: to its exit right after) | ${f1(s.mcpToolsListMs)} (+${f1(s.mcpToolsListMs - s.nodeMs)} over Node) | ${f1(s.mcpCpuMs)} (+${f1(s.mcpCpuMs - s.nodeCpuMs)}) |`,
);
console.log("");
console.log(
	"| query | MCP round trip p50 | its indexer's sync p50 | library search p50 | library discover + budget p50 | library sync + discover + budget p50 |",
);
console.log("|---|---|---|---|---|---|");
for (const r of rows)
	console.log(`| ${r.name} | ${f1(r.mcp)} | ${f1(r.indexerSync)} | ${f1(r.search)} | ${f1(r.reply)} | ${f1(r.syncReply)} |`);
console.log(
	`| **median of the p50s** | **${f1(m.mcpP50)}** | ${f1(m.indexerSyncP50)} | ${f1(m.searchP50)} | ${f1(m.replyP50)} | ${f1(m.syncReplyP50)} |`,
);
console.log("");
console.log(
	`On the index opened as the server opens it, the round trip is ${f1(m.overReplyPerQueryMs)} ms over the library's discover + budget and ${f1(m.overSyncReplyPerQueryMs)} ms over its sync + discover + budget (median over the queries of each query's difference of p50s; ${f1(m.overReplyMs)} and ${f1(m.overSyncReplyMs)} ms between the medians of the p50s). The library has no watch: its sync walks every folder each time, where the server's needs none when nothing changed. The indexer's sync is its own figure (whole ms), without its messages.`,
);
console.log("");
console.log(
	`${result.searchesWithoutSync.count} of ${result.searchesWithoutSync.of} searches were answered without a sync (the server watches its session folders; nothing changed between them); the indexer's sync column is over the others.`,
);
const g = result.grown;
console.log(
	`With one session grown by a message before each search (${g.reps} runs per query): MCP round trip **${f1(g.mcpP50)} ms** (median of the p50s; ${g.changedFileSyncs} of ${g.searches} syncs stat'ed only that file), the library's sync + discover + budget ${f1(g.syncReplyP50)} ms.`,
);
const c = result.cpuPerSearch;
console.log("");
console.log(
	`CPU per search, mean of ${c.calls} calls: the server's processes (the command and its indexer, every thread) ${f1(c.serverMs)} ms; the library's sync + discover + budget ${f1(c.librarySyncReplyMs)} ms.`,
);
