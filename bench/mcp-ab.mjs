// node bench/mcp-ab.mjs <other checkout> [--mb 500 --reps 10 --queries "rare word,prefix"]
// `lookback mcp` of two builds in turn, on one machine at one time: this checkout's and another's (a copy of an
// older commit, built: `git archive <commit> | tar -x -C <dir>`, node_modules linked, `npm run build`). A server of
// each build and each build's library answer the same search one after the other, the order swapped every run,
// so that the load of a shared machine falls on both alike; bench/mcp.mjs measures one build, and two of its runs
// in turn differ by more than a few milliseconds when other work comes and goes. Per query and build: the MCP
// round trip p50, and the library's sync + discover + budget and discover + budget p50 on the index opened as the
// server opens it. Run bench/mcp.mjs first: it builds the index (bench/out/mcp-<mb>mb.db), which both share.
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { mostCommonProject } from "./corpus.mjs";
import { rawMcpServer } from "./mcp-raw.mjs";
import { benchQueries } from "./queries.mjs";

process.env.LOOKBACK_ARCHIVE = "off";
const argv = process.argv.slice(2);
const opt = (name, def) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : def;
};
const other = argv[0] && !argv[0].startsWith("--") ? resolve(argv[0]) : undefined;
if (!other || !existsSync(resolve(other, "dist", "cli.js"))) {
	console.error("usage: node bench/mcp-ab.mjs <other checkout, built> [--mb 500] [--reps 10] [--queries a,b]");
	process.exit(2);
}
const mb = Number(opt("mb", "500"));
const reps = Number(opt("reps", "10"));
const only = opt("queries")?.split(",");

const sessions = resolve("bench", "corpus", `${mb}mb`, "sessions");
const indexPath = resolve("bench", "out", `mcp-${mb}mb.db`);
if (!existsSync(indexPath)) {
	console.error(`no ${indexPath}: run node bench/mcp.mjs --mb ${mb} first`);
	process.exit(2);
}
const nowhere = resolve("bench", "out", "no-agent");
const args = ["--index", indexPath, "--agent-dir", nowhere, "--omp-agent-dir", nowhere, "--sessions-dir", sessions, "--only-sessions-dir"];
const options = { indexPath, agentDir: nowhere, ompAgentDir: nowhere, sessionsDirs: [sessions], onlySessionsDirs: true };
const builds = { other, this: resolve(".") };

/** A build's `lookback mcp` on pipes (bench/mcp-raw.mjs). */
const server = (repo) => rawMcpServer(resolve(repo, "dist", "cli.js"), args);

const queries = benchQueries({ project: mostCommonProject(sessions) }).filter((q) => !only || only.includes(q.name));
const request = (q) => ({ query: q.query, ...(q.since ? { since: q.since } : {}), ...(q.project ? { project: q.project } : {}) });
const sides = {};
for (const [name, repo] of Object.entries(builds)) {
	const lib = await import(resolve(repo, "dist", "index.js"));
	const s = server(repo);
	await s.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-ab", version: "1" } });
	s.notify("notifications/initialized");
	for (let i = 0; i < 600; i++) {
		const status = JSON.parse((await s.request("tools/call", { name: "index_status", arguments: {} })).result.content[0].text);
		if (status.state === "ready") break;
		await new Promise((r) => setTimeout(r, 50));
	}
	sides[name] = { lib, server: s, opened: await lib.openNodeIndex(options) };
}
// Twice through the query set first, every side: V8 optimises the engine's wasm over the first searches.
for (let round = 0; round < 2; round++)
	for (const q of queries)
		for (const side of Object.values(sides)) {
			await side.server.request("tools/call", { name: "search_sessions", arguments: request(q) });
			side.lib.core.boundedJson(side.lib.core.discover(side.opened.index, request(q), side.opened.files));
		}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadBefore = loadavg();
const rows = [];
for (const q of queries) {
	const times = Object.fromEntries(Object.keys(sides).map((k) => [k, { mcp: [], syncReply: [], reply: [] }]));
	for (let r = 0; r < reps; r++) {
		const order = Object.entries(sides);
		for (const [name, side] of r % 2 ? order.reverse() : order) {
			const { core } = side.lib;
			const { index, source, files } = side.opened;
			let t = performance.now();
			const answer = await side.server.request("tools/call", { name: "search_sessions", arguments: request(q) });
			times[name].mcp.push(performance.now() - t);
			if (answer.error || answer.result.isError)
				throw new Error(`${name} ${q.name}: ${JSON.stringify(answer.error ?? answer.result.content)}`);
			t = performance.now();
			core.boundedJson(core.discover(index, request(q), files));
			times[name].reply.push(performance.now() - t);
			t = performance.now();
			await index.sync(source);
			core.boundedJson(core.discover(index, request(q), files));
			times[name].syncReply.push(performance.now() - t);
		}
	}
	const row = { name: q.name };
	for (const [name, t] of Object.entries(times)) row[name] = { mcp: median(t.mcp), syncReply: median(t.syncReply), reply: median(t.reply) };
	rows.push(row);
}
const loadAfter = loadavg();
for (const side of Object.values(sides)) {
	await side.server.close();
	side.opened.index.close();
}

const f1 = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));
const load = (l) => l.map((x) => x.toFixed(2)).join(", ");
console.log(
	`lookback mcp, this build against ${other}, ${mb} MB corpus, ${reps} runs per query in turn; load average ${load(loadBefore)} before, ${load(loadAfter)} after`,
);
console.log("");
console.log("| query | other: MCP | other: library sync + discover + budget | this: MCP | this: library sync + discover + budget |");
console.log("|---|---|---|---|---|");
for (const r of rows)
	console.log(`| ${r.name} | ${f1(r.other.mcp)} | ${f1(r.other.syncReply)} | ${f1(r.this.mcp)} | ${f1(r.this.syncReply)} |`);
const m = (name, key) => median(rows.map((r) => r[name][key]));
console.log(
	`| **median of the p50s** | **${f1(m("other", "mcp"))}** | ${f1(m("other", "syncReply"))} | **${f1(m("this", "mcp"))}** | ${f1(m("this", "syncReply"))} |`,
);
console.log("");
for (const name of Object.keys(builds))
	console.log(
		`${name}: the round trip over the library's sync + discover + budget ${f1(m(name, "mcp") - m(name, "syncReply"))} ms, over discover + budget ${f1(m(name, "mcp") - m(name, "reply"))} ms (medians of the p50s)`,
	);
console.log(
	`this build's round trip is faster in ${rows.filter((r) => r.this.mcp < r.other.mcp).length} of ${rows.length} queries, by ${f1(median(rows.map((r) => r.other.mcp - r.this.mcp)))} ms (median over the queries of the difference of p50s)`,
);
