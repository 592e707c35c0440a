// Served mode in a real headless Chromium: `lookback serve` hands the viewer a read-optimised snapshot of the
// index and the page's worker reads it by HTTP ranges. Bytes and requests are counted inside the server
// (served-bytes-preload.mjs: what its sockets wrote for /index.db, headers included), never by the page.
//   node bench/browser-served.mjs --mb 20 [--reps 5]          the bench corpus of that size, indexed with `lookback index`
//   node bench/browser-served.mjs --sessions DIR --index FILE  an index of DIR already built (run.mjs passes its wasm build)
// Measures: making the snapshot; page load to the first result of a deep link to a rare-word search; opening
// the page (engine + index + landing); what the page fetches ahead while the landing shows (until the server
// is quiet for 500 ms); the first query, pasted, and ten more, typed key by key, as the page shows them (last input
// → list shown, the first page of results; a typed query's figure holds the page's 150 ms pause after a keystroke); query p50 in the page: the queries of
// queries.mjs asked of a fresh viewer worker in the page, the app's own search call, timed from the page; and the
// usage dashboard's first paint in a fresh page (navigation to its figures and chart shown, and the requests that
// began before then), then redrawn for one project.
// Prints one JSON line.
import { execFileSync, fork } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { launchChromium } from "../test/chromium.mjs";
import { namedArgs } from "./args.mjs";
import { benchCorpus, mostCommonProject } from "./corpus.mjs";
import { benchQueries } from "./queries.mjs";
import { stats } from "./stats.mjs";

const args = namedArgs(process.argv.slice(2));
const reps = Number(args.reps ?? 5);
const sessions = resolve(args.sessions ?? join(benchCorpus(Number(args.mb ?? 20)).dir, "sessions"));
const indexPath = resolve(args.index ?? join("bench", "out", `${args.mb ?? 20}mb-wasm.db`));
const CLI = resolve("dist", "cli.js");
const where = ["--index", indexPath, "--sessions-dir", sessions, "--only-sessions-dir", "--agent-dir", resolve("bench", "out", "no-agent")];
const queries = benchQueries({ project: mostCommonProject(sessions) });
const FIRST = queries[0];
const TEN_MORE = queries.slice(1, 11);

mkdirSync(join("bench", "out"), { recursive: true });
// Up to date with the corpus (a no-change sync when run.mjs has just built it).
execFileSync(process.execPath, [CLI, "index", ...where], { stdio: ["ignore", "ignore", "inherit"] });

const server = fork(CLI, ["serve", ...where, "--no-sync"], {
	// The server runs in this process, whose sockets the preload counts and whose IPC channel answers for them.
	execArgv: ["--import", pathToFileURL(resolve("bench", "served-bytes-preload.mjs")).href],
	stdio: ["ignore", "pipe", "inherit", "ipc"],
});
let printed = "";
// The URL it prints carries its token (the index needs it): the page gets it as the cookie the server would set.
const [url, token] = await new Promise((found, failed) => {
	server.stdout.on("data", (chunk) => {
		printed += chunk;
		const m = /(http:\/\/127\.0\.0\.1:(\d+)\/)\?token=([\w-]+)/.exec(printed);
		if (m) found([m[1], m[3]]);
	});
	server.once("exit", (code) => failed(new Error(`lookback serve exited (${code}): ${printed}`)));
});
const sent = async () => {
	server.send("counts");
	const [counts] = await once(server, "message");
	return counts;
};
/** What the server sent for the requests that started before `at` (epoch ms), the page's own clock's moments converted. */
const sentBefore = async (at) => {
	server.send({ before: at });
	const [counts] = await once(server, "message");
	return counts;
};
const since = (before, after) => ({ requests: after.requests - before.requests, bytes: after.bytes - before.bytes });

// The server makes the read-optimised snapshot on the first request for the index.
const t0 = performance.now();
const head = await fetch(`${url}index.db`, { method: "HEAD", headers: { authorization: `Bearer ${token}` } });
const snapshot = { ms: performance.now() - t0, bytes: Number(head.headers.get("content-length")) };

/** Moments the page reached, in its own clock (ms since navigation started), recorded as they happen. */
function watchPage() {
	const marks = { typed: 0, ready: 0, recent: 0, firstResult: 0, dashboard: 0, shown: {} };
	window.__bench = marks;
	document.addEventListener("input", () => (marks.typed = performance.now()), true);
	new MutationObserver(() => {
		const now = performance.now();
		if (!marks.ready && document.body?.dataset.ready === "true") marks.ready = now;
		if (!marks.dashboard && document.body?.dataset.dashboard === "ready" && document.querySelector(".usage-chart canvas"))
			marks.dashboard = now;
		const list = document.getElementById("list");
		if (!list) return;
		if (list.dataset.kind === "recent" && !marks.recent && list.querySelector(".row")) marks.recent = now;
		if (list.dataset.kind !== "results") return;
		if (!(list.dataset.query in marks.shown)) marks.shown[list.dataset.query] = now;
		if (!marks.firstResult && list.querySelector(".row")) marks.firstResult = now;
	}).observe(document, { subtree: true, childList: true, attributes: true });
}

const browser = await launchChromium();
const marks = (page) => page.evaluate(() => window.__bench);

async function newPage() {
	const context = await browser.newContext();
	await context.addCookies([{ name: `lookback-token-${new URL(url).port}`, value: token, url, httpOnly: true, sameSite: "Strict" }]);
	const page = await context.newPage();
	await page.addInitScript(watchPage);
	return page;
}

/**
 * Put `query` into the page — at once as a paste does (`fill`), or key by key 40 ms apart — and wait until the list
 * shows it: ms from the last input event, and what the server sent meanwhile. The page searches a paste at once
 * and waits 150 ms after a keystroke, so a typed query's figure holds that pause.
 */
async function typed(page, query, { keys = false } = {}) {
	const before = await sent();
	if (keys) {
		await page.fill("#query", "");
		await page.type("#query", query, { delay: 40 });
	} else await page.fill("#query", query);
	await page.waitForFunction((q) => q in window.__bench.shown, query, { timeout: 120_000 });
	const m = await marks(page);
	return { ms: m.shown[query] - m.typed, ...since(before, await sent()) };
}

// Opening the page, then the first query, pasted, and ten more, typed key by key.
const page = await newPage();
let before = await sent();
await page.goto(`${url}?load=paged`);
await page.waitForFunction(() => window.__bench.recent > 0 && document.querySelector(".landing"), null, { timeout: 120_000 });
const opened = { readyMs: (await marks(page)).ready, recentMs: (await marks(page)).recent, ...since(before, await sent()) };
// A person reads the landing page before typing; meanwhile the page fetches ahead what nearly every query reads.
// Wait until the server has sent nothing for 500 ms (at most 10 s), and count what it sent from the landing on.
before = await sent();
const reading = performance.now();
let quietSince = performance.now();
for (let last = before; performance.now() - quietSince < 500 && performance.now() - reading < 10_000; ) {
	await new Promise((r) => setTimeout(r, 100));
	const now = await sent();
	if (now.requests !== last.requests) quietSince = performance.now();
	last = now;
}
const prefetched = { ms: quietSince - reading, ...since(before, await sent()) };
const first = { query: FIRST.query, ...(await typed(page, FIRST.query)) };
const more = [];
for (const q of TEN_MORE) more.push({ query: q.query, ...(await typed(page, q.query, { keys: true })) });
await page.context().close();

// The usage dashboard in a fresh page: navigation to its figures and chart shown, then redrawn for the largest project.
const board = await newPage();
before = await sent();
await board.goto(`${url}?load=paged&view=usage`);
await board.waitForFunction(() => window.__bench.dashboard > 0, null, { timeout: 120_000 });
// Counted to the first paint: what the page fetches ahead once it is painted is not the dashboard's.
const painted = (await marks(board)).dashboard;
const paintedAt = await board.evaluate((ms) => performance.timeOrigin + ms, painted);
const dashboardFirst = { firstPaintMs: painted, ...since(before, await sentBefore(paintedAt)) };
before = await sent();
const project = mostCommonProject(sessions);
const t1 = performance.now();
await board.evaluate(() => {
	document.body.dataset.dashboard = "";
});
await board.fill("input[name=project]", project);
await board.waitForFunction(() => document.body.dataset.dashboard === "ready", null, { timeout: 120_000 });
const dashboardFiltered = { project, ms: performance.now() - t1, ...since(before, await sent()) };
await board.context().close();

// A deep link to the rare-word search, in a fresh page: page load to the first result.
const linked = await newPage();
before = await sent();
await linked.goto(`${url}?load=paged&q=${encodeURIComponent(FIRST.query)}`);
await linked.waitForFunction(() => window.__bench.firstResult > 0 && document.querySelector(".landing"), null, { timeout: 120_000 });
const deepLink = { firstResultMs: (await marks(linked)).firstResult, ...since(before, await sent()) };

// Query p50 in the page: a fresh viewer worker asked the app's own search call, timed from the page.
before = await sent();
const latencies = await linked.evaluate(
	async ({ queries, reps }) => {
		const worker = new Worker("/worker.js", { type: "module" });
		let next = 0;
		const call = (name, callArgs) =>
			new Promise((done, failed) => {
				const id = ++next;
				const onReply = ({ data }) => {
					if (data.id !== id) return;
					worker.removeEventListener("message", onReply);
					if (data.ok) done(data.value);
					else failed(new Error(data.error));
				};
				worker.addEventListener("message", onReply);
				worker.postMessage({ id, call: name, args: callArgs });
			});
		await call("open", { url: "index.db", mode: "paged" });
		const out = [];
		for (const q of queries) {
			const request = { query: q.query, since: q.since, project: q.project, limit: 100 };
			const times = [];
			let sessions = 0;
			for (let i = 0; i <= reps; i++) {
				const t = performance.now();
				sessions = (await call("search", request)).results.length;
				times.push(performance.now() - t);
			}
			out.push({ name: q.name, query: q.query, sessions, firstMs: times[0], times: times.slice(1) });
		}
		worker.terminate();
		return out;
	},
	{ queries: queries.map(({ name, query, since, project }) => ({ name, query, since, project })), reps },
);
const queryRuns = since(before, await sent());
await browser.close();

server.disconnect();
server.kill("SIGINT");
await once(server, "exit");

const sum = (xs, key) => xs.reduce((a, x) => a + x[key], 0);
const median = (xs) => stats(xs).p50;
process.stdout.write(
	`${JSON.stringify({
		indexBytes: statSync(indexPath).size,
		snapshot,
		opened,
		prefetched,
		first,
		tenMore: { requests: sum(more, "requests"), bytes: sum(more, "bytes"), shownP50Ms: median(more.map((q) => q.ms)), queries: more },
		deepLink,
		dashboard: { first: dashboardFirst, filtered: dashboardFiltered },
		inPage: {
			reps,
			medianP50Ms: median(latencies.map((q) => stats(q.times).p50)),
			worstP95Ms: Math.max(...latencies.map((q) => stats(q.times).p95)),
			medianFirstMs: median(latencies.map((q) => q.firstMs)),
			...queryRuns,
			latencies: latencies.map(({ times, ...q }) => ({ ...q, ...stats(times) })),
		},
	})}\n`,
);
