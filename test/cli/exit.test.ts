/**
 * A one-shot command exits every time. Node's exit can deadlock while V8 optimises a function on a background
 * thread (nodejs/node#54918: `lookback search 'AND AND' --json` hung after its reply in 10 of 40 runs on Node
 * 20.20.2). A short command therefore runs with V8's optimisers off, and a long one settles them before it ends
 * (src/cli.ts), both in the Node they were started in. Here the commands that hung run many times under a
 * timeout, V8's own trace shows no optimisation in a short command and none left in flight at a long one's end,
 * and the exit status and signals are the command's — on the Node that runs the tests (20) and on Node 22 where
 * it is installed (scripts/ensure-node22.mjs).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE22, REPO } from "../agents.js";
import { FIXTURES, tempDir } from "../helpers.js";

const CLI = join(REPO, "dist", "cli.js");
let common: string[] = [];

interface Run {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	/** Killed by the timeout: the deadlock. */
	hung: boolean;
}

function lookback(node: string, args: string[], nodeArgs: string[] = [], shared = common, timeoutMs = 60_000): Promise<Run> {
	return new Promise((resolve) => {
		const child = spawn(node, [...nodeArgs, CLI, ...args, ...shared], { stdio: ["ignore", "pipe", "ignore"] });
		let stdout = "";
		child.stdout.on("data", (c) => (stdout += c));
		let hung = false;
		const timer = setTimeout(() => {
			hung = true;
			child.kill("SIGKILL");
		}, timeoutMs);
		child.on("exit", (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, hung });
		});
	});
}

// The index's folder lasts the whole file (a tempDir goes after each test; a named index's folder is never made again).
let shared: string;
beforeAll(async () => {
	shared = mkdtempSync(join(tmpdir(), "exit-"));
	common = ["--sessions-dir", FIXTURES, "--only-sessions-dir", "--index", join(shared, "index.db")];
	expect((await lookback(process.execPath, ["index"])).code).toBe(0);
});
afterAll(() => rmSync(shared, { recursive: true, force: true }));

/** `lookback mcp` asked for its tools and for searches, then its stdin closed at once: whether it exited in time. */
function mcpSession(node: string): Promise<{ hung: boolean }> {
	return new Promise((resolve) => {
		const child = spawn(node, [CLI, "mcp", ...common], { stdio: ["pipe", "pipe", "ignore"] });
		const lines = ["initialize", "tools/list", "search", "search", "search"].map((method, id) =>
			JSON.stringify(
				method === "search"
					? {
							jsonrpc: "2.0",
							id,
							method: "tools/call",
							params: { name: "search_sessions", arguments: { query: ["AND AND", "sqlite", "死锁"][id % 3] } },
						}
					: {
							jsonrpc: "2.0",
							id,
							method,
							params:
								method === "initialize" ? { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } : {},
						},
			),
		);
		let out = "";
		child.stdout.on("data", (c) => {
			out += c;
			// Every request answered: the client goes.
			if (out.split("\n").length > lines.length) child.stdin.end();
		});
		child.stdin.write(
			`${lines[0]}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${lines.slice(1).join("\n")}\n`,
		);
		let hung = false;
		const timer = setTimeout(() => {
			hung = true;
			child.kill("SIGKILL");
		}, 60_000);
		child.on("exit", () => {
			clearTimeout(timer);
			resolve({ hung });
		});
	});
}

/** A module that, preloaded, adds a line to `file` for each Node started with it. */
function countStarts(file: string): string {
	const module = `${file}.mjs`;
	writeFileSync(module, `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(file)}, "start\\n");\n`);
	return module;
}

/** Run each command `times` times, two at a time; the runs that did not exit 0 in time. */
async function runMany(node: string, commands: string[][], times: number): Promise<{ runs: number; hung: number; failed: number }> {
	const queue = Array.from({ length: times }, (_, i) => commands[i % commands.length]);
	let hung = 0;
	let failed = 0;
	await Promise.all(
		[0, 1].map(async () => {
			for (let args = queue.shift(); args; args = queue.shift()) {
				const run = await lookback(node, [...args, "--json"]);
				if (run.hung) hung++;
				else if (run.code !== 0) failed++;
			}
		}),
	);
	return { runs: times, hung, failed };
}

const NODES: [string, string][] = [[`Node ${process.versions.node}`, process.execPath]];
if (NODE22) NODES.push(["Node 22", NODE22]);

describe.each(NODES)("the lookback bin on %s", (_name, node) => {
	it("exits every time after the searches that hung", async () => {
		expect(await runMany(node, [["search", "AND AND"]], 40)).toEqual({ runs: 40, hung: 0, failed: 0 });
	}, 600_000);

	it("exits every time after a mixed set of one-shot commands", async () => {
		const mixed = [
			["search", "sqlite"],
			["browse"],
			["stats"],
			["search", "死锁"],
			["search", "tateSto"],
			["read", "01a100d3"],
			["usage"],
			["export", "01a100d3", "--format", "html"],
		];
		expect(await runMany(node, mixed, 64)).toEqual({ runs: 64, hung: 0, failed: 0 });
	}, 600_000);

	it("runs a short command in the first Node, with no optimising compiler at all", async () => {
		// A preload handed on to any Node the bin starts counts the starts; V8's trace of the command is on stdout.
		const starts = join(tempDir("starts"), "starts");
		const run = await lookback(node, ["search", "AND AND"], ["--trace-opt", "--import", countStarts(starts)]);
		expect(run.code).toBe(0);
		expect(run.stdout.split("\n").filter((l) => l.startsWith("[compiling method"))).toEqual([]);
		expect(readFileSync(starts, "utf8")).toBe("start\n");
	});

	it("runs a long command in the first Node with the optimisers on its background threads, and leaves no job of theirs to its exit", async () => {
		const starts = join(tempDir("starts"), "starts");
		const fresh = [...common.slice(0, -1), join(tempDir("exit-index"), "index.db")];
		const run = await lookback(node, ["index"], ["--trace-opt", "--import", countStarts(starts)], fresh);
		expect(run.code).toBe(0);
		const lines = run.stdout.split("\n");
		const started = lines.filter((l) => l.startsWith("[compiling method") && l.includes("ConcurrencyMode::kConcurrent"));
		expect(started.length).toBeGreaterThan(0);
		// Every job begun was finished (compiled, or given up) before the end: none was in flight when Node exited.
		const ended = lines.filter((l) => /^\[(completed compiling|aborted optimizing|bailed out)/.test(l));
		expect(ended.length).toBeGreaterThanOrEqual(started.length);
		expect(readFileSync(starts, "utf8")).toBe("start\n");
	});

	it("exits every time after an MCP session", async () => {
		let hung = 0;
		for (let i = 0; i < 20; i++) if ((await mcpSession(node)).hung) hung++;
		expect(hung).toBe(0);
	}, 600_000);

	it("hands on the command's exit status and a signal", async () => {
		expect((await lookback(node, ["search", "x", "--limit", "-1"])).code).toBe(2);
		const serve = spawn(node, [CLI, "serve", ...common], { stdio: ["ignore", "pipe", "ignore"] });
		let out = "";
		serve.stdout.on("data", (c) => (out += c));
		const url = await new Promise<string>((resolve) =>
			serve.stdout.on("data", () => /http:\/\/\S+\//.test(out) && resolve(/http:\/\/\S+\//.exec(out)![0])),
		);
		expect((await fetch(url)).status).toBe(200);
		const exited = new Promise<NodeJS.Signals | null>((resolve) => serve.on("exit", (_code, signal) => resolve(signal)));
		serve.kill("SIGTERM");
		expect(await exited).toBe("SIGTERM");
		// The command line's own process got the signal too: nothing answers any more.
		await expect(fetch(url)).rejects.toThrow();
	}, 120_000);
});
