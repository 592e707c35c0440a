/**
 * The extension inside the real Pi on a history too large to index at once (40 MB, generated): nothing waits
 * for the first index. A print-mode run's search answers at once from what is indexed, saying how far indexing
 * has got, and Pi exits while its indexer process goes on to the end of the first index; the next run finds it
 * complete. In the TUI the progress shows on Pi's status line, and Pi quits while the indexer runs.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { IndexerSlot } from "../../src/node/indexer-slot.js";
import { openNodeIndex } from "../../src/node/open.js";
import { EXTENSION, PI_RELEASES, useFakeModel } from "../agents.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { tempDir } from "../helpers.js";

const model = useFakeModel();
const MB = 40;
let corpus = "";
let files = 0;

beforeAll(() => {
	// Not tempDir(): that one is removed after each test, and the corpus serves the whole file.
	corpus = mkdtempSync(join(tmpdir(), "pi-background-"));
	files = generateCorpus({ out: corpus, mb: MB, seed: 7 }).files;
}, 120_000);
afterAll(() => rmSync(corpus, { recursive: true, force: true }));

/** A Pi home whose history is the corpus; the index in the agent dir, where the extension puts it. */
function piHome() {
	const root = tempDir("pi-background");
	const agentDir = join(root, "agent");
	const cwd = join(root, "proj");
	for (const d of [join(root, "home"), cwd]) mkdirSync(d, { recursive: true });
	cpSync(join(corpus, "sessions"), join(agentDir, "sessions"), { recursive: true });
	writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.current.url));
	return {
		root,
		agentDir,
		cwd,
		indexPath: join(agentDir, "lookback", "index.db"),
		env: { HOME: join(root, "home"), PI_CODING_AGENT_DIR: agentDir },
	};
}

function run(command: string[], args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stderr: string }> {
	const [exe, ...before] = command;
	return new Promise((resolve) => {
		const child = execFile(
			exe,
			[...before, ...args],
			{ cwd, env: { ...process.env, ...env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" }, encoding: "utf8", timeout: 120_000 },
			(error, _stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
		);
		child.stdin?.end();
	});
}

/** The replies of the session_search calls in the newest session Pi wrote for `cwd`. */
function toolReplies(agentDir: string): { indexing?: { done: number; total: number }; results: { sessionId: string }[] }[] {
	const folder = readdirSync(join(agentDir, "sessions")).find((d) => d.endsWith("-proj--"))!;
	const file = readdirSync(join(agentDir, "sessions", folder))
		.sort()
		.pop()!;
	return readFileSync(join(agentDir, "sessions", folder, file), "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l))
		.filter((e) => e.message?.role === "toolResult" && e.message.toolName === "session_search")
		.map((e) => JSON.parse(e.message.content[0].text));
}

/** Wait until no process holds the indexer slot; the sessions indexed then, and when the last sync ended. */
async function indexerDone(indexPath: string, ms = 300_000): Promise<{ sessions: number; lastSync: number }> {
	const deadline = Date.now() + ms;
	const slot = new IndexerSlot(indexPath);
	while (slot.other() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
	expect(slot.other(), "the indexer process never finished").toBeUndefined();
	const opened = await openNodeIndex({ indexPath, onlySessionsDirs: true, env: {} });
	try {
		const { sessions, lastSync } = opened.index.overview();
		return { sessions, lastSync: Date.parse(lastSync ?? "") };
	} finally {
		opened.index.close();
	}
}

const search = `CALL session_search ${JSON.stringify({ query: "zanzibarRetryPolicy" })}`;

describe.each(PI_RELEASES)("the first index in the real $name", (release) => {
	it("answers a search at once while it runs, goes on after Pi exits, and is complete for the next run", async () => {
		const home = piHome();
		const first = await run(
			release.command,
			["--provider", "fake", "--model", "fake-model", "-e", EXTENSION, "-p", search],
			home.env,
			home.cwd,
		);
		expect(first.code, first.stderr).toBe(0);
		const [early] = toolReplies(home.agentDir);
		// Answered from what was indexed then, with how far indexing had got: no wait for the first index.
		expect(early.indexing?.total).toBeGreaterThanOrEqual(files);
		expect(early.indexing!.done).toBeLessThan(files);
		// Pi has exited; its indexer process goes on and finishes the first index without another run.
		const exited = Date.now();
		const done = await indexerDone(home.indexPath);
		expect(done.sessions).toBeGreaterThanOrEqual(files);
		expect(done.lastSync).toBeGreaterThan(exited - 1_000);
		const second = await run(
			release.command,
			["--provider", "fake", "--model", "fake-model", "-e", EXTENSION, "-p", search],
			home.env,
			home.cwd,
		);
		expect(second.code, second.stderr).toBe(0);
		const [later] = toolReplies(home.agentDir);
		expect(later.indexing).toBeUndefined();
		expect(later.results.length).toBeGreaterThan(0);
	}, 600_000);
});

/** Whether a lookback indexer process of this agent dir runs now (its environment names the dir; Linux's /proc). */
function indexerOf(agentDir: string): boolean {
	for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
		try {
			const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
			if (!cmdline.includes("indexer")) continue;
			if (readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`PI_CODING_AGENT_DIR=${agentDir}`)) return true;
		} catch {
			// gone meanwhile, or not ours to read
		}
	}
	return false;
}

describe.each(PI_RELEASES)("print mode without a search in the real $name", (release) => {
	it("starts no indexer while Pi works, and the first index runs to its end after Pi exits", async () => {
		const home = piHome();
		const seen: boolean[] = [];
		const hello = () =>
			run(release.command, ["--provider", "fake", "--model", "fake-model", "-e", EXTENSION, "-p", "hello"], home.env, home.cwd);
		model.current.onRequest = () => seen.push(indexerOf(home.agentDir));
		try {
			const done = await hello();
			expect(done.code, done.stderr).toBe(0);
		} finally {
			model.current.onRequest = undefined;
		}
		// Pi asked the model once, and no indexer process shared the machine with it then.
		expect(seen).toEqual([false]);
		// Started at Pi's exit, the indexer indexes the whole history without another run.
		const sleep = () => new Promise((r) => setTimeout(r, 250));
		for (let i = 0; i < 40 && !indexerOf(home.agentDir); i++) await sleep();
		expect(indexerOf(home.agentDir), "no indexer process after Pi's exit").toBe(true);
		for (const until = Date.now() + 300_000; indexerOf(home.agentDir) && Date.now() < until; ) await sleep();
		const indexed = await indexerDone(home.indexPath);
		expect(indexed.sessions).toBeGreaterThanOrEqual(files);
		// The index complete, the next run without a search starts no indexer at its exit either.
		const again = await hello();
		expect(again.code, again.stderr).toBe(0);
		const after: boolean[] = [];
		for (let i = 0; i < 12; i++, await sleep()) after.push(indexerOf(home.agentDir));
		expect(after.every((running) => !running)).toBe(true);
	}, 600_000);
});

const SESSION = `lookback-bg-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
afterEach(() => {
	try {
		tmux("kill-session", "-t", SESSION);
	} catch {
		// already gone
	}
});

async function screenUntil(pattern: RegExp, tries = 300): Promise<string> {
	let screen = "";
	for (let i = 0; i < tries; i++) {
		screen = tmux("capture-pane", "-t", SESSION, "-p");
		if (pattern.test(screen)) return screen;
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`the screen never showed ${pattern}:\n${screen}`);
}

describe.each(PI_RELEASES)("the first index in the TUI of $name", (release) => {
	it("shows files done / total on the status line, and Pi quits while it runs", async () => {
		const home = piHome();
		const env = Object.entries({ ...home.env, PI_OFFLINE: "1" })
			.map(([k, v]) => `${k}=${v}`)
			.join(" ");
		tmux(
			"new-session",
			"-d",
			"-s",
			SESSION,
			"-x",
			"120",
			"-y",
			"40",
			"-c",
			home.cwd,
			`${env} ${release.command.join(" ")} --provider fake --model fake-model -e ${EXTENSION}`,
		);
		const screen = await screenUntil(/lookback: indexing [\d,]+\/[\d,]+ files/);
		const [, total] = /lookback: indexing [\d,]+\/([\d,]+) files/.exec(screen)!;
		expect(Number(total.replace(/,/g, ""))).toBeGreaterThanOrEqual(files);
		tmux("send-keys", "-t", SESSION, "/quit", "Enter");
		let gone = false;
		for (let i = 0; i < 150 && !gone; i++) {
			await new Promise((r) => setTimeout(r, 200));
			try {
				tmux("has-session", "-t", SESSION);
			} catch {
				gone = true;
			}
		}
		expect(gone, "Pi did not quit").toBe(true);
		expect((await indexerDone(home.indexPath)).sessions).toBeGreaterThanOrEqual(files);
	}, 600_000);
});
