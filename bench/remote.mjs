// npm run bench:remote [-- --mb 500 --shards 5,20,50 --latency 20-50 --runs 5]
//
// A team's history read over the network: the corpus of `--mb` (bench/corpus/) split among N machines, each published
// as a shard of one bucket folder (lookback publish file://…), then served by a static server on 127.0.0.1 that honours
// Range and waits 20–50 ms (uniform, `--latency`) before each answer, as a bucket a region away would. For each N:
//   cold: each query in a new `lookback search --remote` process (manifests, the shards' opening, their pages all read anew);
//   warm: the same queries again and again in one `lookback mcp --remote` server (its workers keep each shard's pages);
// requests, bytes, p50 and p95. Then publish time and bytes of the whole corpus as one machine, first and after a
// small change (3 sessions grown). The machine is shared: say so with the figures.

import { execFile } from "node:child_process";
import { cpSync, createReadStream, existsSync, linkSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { namedArgs } from "./args.mjs";
import { benchCorpus } from "./corpus.mjs";
import { appendToFiles } from "./gen-corpus.mjs";

const args = namedArgs(process.argv.slice(2));
const MB = Number(args.mb ?? 500);
const SHARDS = String(args.shards ?? "5,20,50")
	.split(",")
	.map(Number);
const [MIN_MS, MAX_MS] = String(args.latency ?? "20-50")
	.split("-")
	.map(Number);
const RUNS = Number(args.runs ?? 5);
const CLI = resolve("dist/cli.js");
const WORK = resolve("bench", "remote-work", `${MB}mb`);
const QUERIES = ["zanzibarRetryPolicy", "DHTDynamicResolverV2", "acquireConfigPatch timeout", "error", '"connect ECONNREFUSED"'];

const pct = (values, p) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const mb = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1)} MB`;

/** Run the CLI; its JSON reply. Not synchronously: the delaying server answers from this process's event loop. */
async function lookback(argv, env = {}) {
	const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...argv, "--json"], {
		env: { ...process.env, ...env },
		maxBuffer: 1 << 28,
	});
	return JSON.parse(stdout);
}

/** The corpus's session files split round-robin among `n` machines (hard links: no copy). */
function split(sessions, n) {
	const root = join(WORK, `split-${n}`);
	if (existsSync(join(root, "done"))) return root;
	rmSync(root, { recursive: true, force: true });
	let i = 0;
	for (const project of readdirSync(sessions).sort()) {
		for (const file of readdirSync(join(sessions, project)).sort()) {
			const dir = join(root, `m${String(i++ % n).padStart(2, "0")}`, "sessions", project);
			mkdirSync(dir, { recursive: true });
			linkSync(join(sessions, project, file), join(dir, file));
		}
	}
	mkdirSync(join(root, "done"));
	return root;
}

const machineArgs = (dir) => ["--sessions-dir", join(dir, "sessions"), "--only-sessions-dir", "--index", join(dir, "lookback", "index.db")];

/** A static server of `root` on 127.0.0.1 with Range, each answer after 20–50 ms; counts requests and bytes. */
async function delayingServer(root) {
	const counted = { requests: 0, bytes: 0 };
	const server = createServer((req, res) => {
		const path = join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
		setTimeout(
			() => {
				let size;
				try {
					size = statSync(path).size;
				} catch {
					res.writeHead(404).end();
					return;
				}
				counted.requests++;
				const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
				if (m) {
					const [start, end] = [Number(m[1]), Math.min(Number(m[2]), size - 1)];
					counted.bytes += end - start + 1;
					res.writeHead(206, { "content-range": `bytes ${start}-${end}/${size}`, "content-length": end - start + 1 });
					createReadStream(path, { start, end }).pipe(res);
				} else {
					counted.bytes += size;
					res.writeHead(200, { "content-length": size });
					createReadStream(path).pipe(res);
				}
			},
			MIN_MS + Math.random() * (MAX_MS - MIN_MS),
		);
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	return { url: `http://127.0.0.1:${server.address().port}`, counted, close: () => new Promise((r) => server.close(r)) };
}

async function mcpClient(remote) {
	const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--remote", remote], stderr: "ignore" });
	const client = new Client({ name: "bench-remote", version: "1" });
	await client.connect(transport);
	return client;
}

const { dir } = benchCorpus(MB);
const sessions = join(dir, "sessions");
mkdirSync(WORK, { recursive: true });
console.log(
	`remote search over a ${MB} MB corpus split among N machines, ${MIN_MS}–${MAX_MS} ms added per request (${new Date().toISOString().slice(0, 10)})`,
);

for (const n of SHARDS) {
	const root = split(sessions, n);
	const bucket = join(WORK, `bucket-${n}`);
	const machines = readdirSync(root).filter((d) => d.startsWith("m"));
	if (!existsSync(join(bucket, "lookback-team.json")) || readdirSync(join(bucket, "shards")).length < machines.length) {
		const t = performance.now();
		let bytes = 0;
		for (const m of machines)
			bytes += (await lookback(["publish", pathToFileURL(bucket).href, "--as", m, ...machineArgs(join(root, m))])).uploadedBytes;
		console.log(`N=${n}: published ${machines.length} shards, ${mb(bytes)} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
	}
	const server = await delayingServer(WORK);
	const remote = `${server.url}/bucket-${n}`;
	const cold = { ms: [], requests: [], bytes: [] };
	for (let r = 0; r < RUNS; r++)
		for (const q of QUERIES) {
			const before = { ...server.counted };
			const t = performance.now();
			await lookback(["search", q, "--remote", remote]);
			cold.ms.push(performance.now() - t);
			cold.requests.push(server.counted.requests - before.requests);
			cold.bytes.push(server.counted.bytes - before.bytes);
		}
	const client = await mcpClient(remote);
	await client.callTool({ name: "index_status", arguments: {} });
	const warm = { ms: [], requests: [], bytes: [] };
	for (let r = 0; r < RUNS + 1; r++)
		for (const q of QUERIES) {
			const before = { ...server.counted };
			const t = performance.now();
			await client.callTool({ name: "search_sessions", arguments: { query: q } });
			if (r === 0) continue; // the first round fills the workers' caches
			warm.ms.push(performance.now() - t);
			warm.requests.push(server.counted.requests - before.requests);
			warm.bytes.push(server.counted.bytes - before.bytes);
		}
	await client.close();
	await server.close();
	const line = (name, s) =>
		`  ${name}: p50 ${pct(s.ms, 50).toFixed(0)} ms, p95 ${pct(s.ms, 95).toFixed(0)} ms; requests p50 ${pct(s.requests, 50)} (p95 ${pct(s.requests, 95)}); bytes p50 ${mb(pct(s.bytes, 50))} (p95 ${mb(pct(s.bytes, 95))})`;
	console.log(
		`N=${n} shards (${QUERIES.length} queries × ${RUNS})\n${line("cold (a new process each)", cold)}\n${line("warm (one MCP server)   ", warm)}`,
	);
}

// Publish time and bytes: the whole corpus as one machine, first and after a small change (`--publish no`: not again).
if (args.publish === "no") process.exit(0);
// A copy of the corpus (the small change appends to its files: never to the corpus itself, nor to links of it).
const one = join(WORK, "one-machine");
rmSync(one, { recursive: true, force: true });
cpSync(sessions, join(one, "m00", "sessions"), { recursive: true });
const bucket = pathToFileURL(join(one, "bucket")).href;
const oneArgs = machineArgs(join(one, "m00"));
let t = performance.now();
const first = await lookback(["publish", bucket, "--as", "all", ...oneArgs]);
console.log(
	`publish of all ${MB} MB as one shard: ${((performance.now() - t) / 1000).toFixed(1)} s, sent ${mb(first.uploadedBytes)} of a ${mb(first.shardBytes)} shard`,
);
const grown = appendToFiles({ dir: join(one, "m00"), count: 3, seed: 5 });
t = performance.now();
const again = await lookback(["publish", bucket, "--as", "all", ...oneArgs]);
console.log(
	`publish after a small change (${grown.appendedBytes ?? grown} bytes appended to 3 sessions): ${((performance.now() - t) / 1000).toFixed(1)} s, sent ${mb(again.uploadedBytes)} (${((100 * again.uploadedBytes) / again.shardBytes).toFixed(1)}% of ${mb(again.shardBytes)})`,
);
