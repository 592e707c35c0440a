// node bench/browser-index.mjs [--mb 20 | --sessions DIR] [--out DIR] [--keep]
// No-server mode's indexing throughput: the built viewer (dist/web, `npm run build` first) in headless Chromium
// indexes a generated corpus picked as a folder (the worker runs the core), once into OPFS (the index in place, as
// the page keeps it where the browser can) and once into IndexedDB (`?store=indexeddb`: the whole index in memory,
// saved in one put), against the Node CLI indexing the same files on the same wasm engine (`lookback index
// --engine wasm`, a new index file). Every figure is wall time for the whole job: the page's from the pick to its
// report (the last commit or the save included), the CLI's from process start to exit. Prints one JSON line.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { performance } from "node:perf_hooks";
import { chromium } from "playwright-core";
import { generateCorpus } from "./gen-corpus.mjs";

// The index alone: the lookback processes this starts keep no archive (run.mjs measures it on its own).
process.env.LOOKBACK_ARCHIVE = "off";

const argv = process.argv.slice(2);
const opt = (name, def) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : def;
};
const mb = Number(opt("mb", "20"));
const out = opt("out", undefined) ?? mkdtempSync(join(tmpdir(), "lookback-browser-bench-"));
const WEB = join(import.meta.dirname, "..", "dist", "web");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/** dist/web from a plain static server on 127.0.0.1, with no index beside it: the page is in no-server mode. */
function staticServer() {
	const server = createServer((req, res) => {
		const path = new URL(req.url ?? "/", "http://x").pathname;
		const file = normalize(join(WEB, path.endsWith("/") ? `${path}index.html` : path));
		try {
			if (!file.startsWith(WEB)) throw new Error("outside");
			const body = readFileSync(file);
			res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
		} catch {
			res.writeHead(404).end();
		}
	});
	return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function inBrowser(sessions, query = "") {
	const server = await staticServer();
	const browser = await chromium.launch({
		executablePath: process.env.LOOKBACK_CHROMIUM ?? "/usr/bin/chromium",
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
		],
	});
	try {
		const page = await browser.newPage();
		await page.goto(`http://127.0.0.1:${server.address().port}/${query}`);
		await page.waitForSelector("body[data-ready=true][data-mode=local]");
		const started = performance.now();
		await page.setInputFiles("#pick-folder", sessions);
		await page.waitForSelector('#local[data-handled="1"]', { timeout: 0 });
		const seconds = (performance.now() - started) / 1000;
		const report = await page.evaluate(() => ({ ...document.querySelector("#scan-report")?.dataset }));
		const problems = await page.locator("#scan-problems li, #local-error").allTextContents();
		return { seconds, filesParsed: Number(report.parsed), filesSeen: Number(report.seen), problems: problems.slice(0, 5) };
	} finally {
		await browser.close();
		server.close();
	}
}

/** The JSONL under a folder, in bytes. */
function jsonlBytes(dir) {
	return readdirSync(dir, { recursive: true })
		.filter((name) => String(name).endsWith(".jsonl"))
		.reduce((sum, name) => sum + statSync(join(dir, String(name))).size, 0);
}

function inNode(sessions, index) {
	const started = performance.now();
	const run = spawnSync(
		process.execPath,
		["dist/cli.js", "index", "--sessions-dir", sessions, "--only-sessions-dir", "--index", index, "--engine", "wasm", "--json"],
		{
			encoding: "utf8",
			env: { ...process.env, HOME: out, PI_CODING_AGENT_DIR: join(out, "agent") },
			maxBuffer: 64 << 20,
		},
	);
	const seconds = (performance.now() - started) / 1000;
	if (run.status !== 0) throw new Error(`lookback index failed: ${run.stderr}`);
	return { seconds, indexBytes: statSync(index).size };
}

try {
	const given = opt("sessions", undefined);
	const sessions = given ?? join(out, "sessions");
	const jsonlMB = (given ? jsonlBytes(given) : generateCorpus({ out, mb, seed: 42 }).bytes) / 1e6;
	const node = inNode(sessions, join(out, "cli-index.db"));
	const browser = await inBrowser(sessions);
	const indexedDb = await inBrowser(sessions, "?store=indexeddb");
	const rate = (s) => Number((jsonlMB / s).toFixed(2));
	console.log(
		JSON.stringify({
			bench: "browser-index",
			jsonlMB: Number(jsonlMB.toFixed(1)),
			browser: { ...browser, seconds: Number(browser.seconds.toFixed(2)), mbPerSecond: rate(browser.seconds) },
			indexedDb: { ...indexedDb, seconds: Number(indexedDb.seconds.toFixed(2)), mbPerSecond: rate(indexedDb.seconds) },
			node: { ...node, seconds: Number(node.seconds.toFixed(2)), mbPerSecond: rate(node.seconds) },
			browserOverNode: Number((node.seconds / browser.seconds).toFixed(2)),
		}),
	);
} finally {
	if (!argv.includes("--keep") && !opt("out", undefined)) rmSync(out, { recursive: true, force: true });
}
