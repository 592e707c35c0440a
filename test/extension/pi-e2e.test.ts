/**
 * End to end with the real `pi`: 0.73.1 (the devDependency, on Node 20) and the current release 1.6.0
 * (@earendil-works, on Node 22). A fake model on 127.0.0.1 answers with a session_search tool call; pi runs the
 * extension and writes the tool result into its session file, which we read back.
 */
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXTENSION, PI_RELEASES, REPO, useFakeModel } from "../agents.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";

const model = useFakeModel();

interface PiRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

function pi(args: string[], env: Record<string, string>, cwd: string): Promise<PiRun> {
	const [exe, ...before] = release.command;
	return new Promise((resolve) => {
		const child = execFile(
			exe,
			[...before, ...args],
			{ cwd, env: { ...process.env, ...env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" }, encoding: "utf8", timeout: 60_000 },
			(error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
		child.stdin?.end();
	});
}

/** A temp HOME and agent dir with the sample sessions and the fake model. */
function piHome() {
	const root = tempDir("pi-e2e");
	const home = join(root, "home");
	const agentDir = join(root, "agent");
	const cwd = join(root, "proj");
	for (const d of [home, agentDir, cwd]) mkdirSync(d, { recursive: true });
	cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
	writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.current.url));
	return { env: { HOME: home, PI_CODING_AGENT_DIR: agentDir }, agentDir, cwd };
}

/** The session_search tool results pi wrote in the newest session of `cwd`'s folder. */
function toolResults(agentDir: string): { text: string; isError: boolean; details: { mode: string } }[] {
	const folder = readdirSync(join(agentDir, "sessions")).find((d) => d.endsWith("-proj--"))!;
	const file = readdirSync(join(agentDir, "sessions", folder))
		.sort()
		.pop()!;
	return readFileSync(join(agentDir, "sessions", folder, file), "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l))
		.filter((e) => e.message?.role === "toolResult" && e.message.toolName === "session_search")
		.map((e) => ({ text: e.message.content[0].text, isError: e.message.isError, details: e.message.details }));
}

async function callTool(params: object, extension = EXTENSION) {
	const home = piHome();
	const run = await pi(
		["--provider", "fake", "--model", "fake-model", "-e", extension, "-p", `CALL session_search ${JSON.stringify(params)}`],
		home.env,
		home.cwd,
	);
	expect(run.code, run.stderr).toBe(0);
	const results = toolResults(home.agentDir);
	expect(results).toHaveLength(1);
	return { ...results[0], reply: results[0].isError ? undefined : JSON.parse(results[0].text), run };
}

let release = PI_RELEASES[0];

describe.each(PI_RELEASES)("session_search in the real $name", (each) => {
	beforeAll(() => {
		release = each;
	});

	it("is the release it names", async () => {
		const run = await pi(["--version"], {}, REPO);
		expect(`${run.stdout}${run.stderr}`.trim()).toBe(release.version);
	});

	it("discovers: the abandoned-branch topic, top hit hydrated", async () => {
		const { reply, details, run } = await callTool({ query: "RabbitMQ quorum" });
		expect(details.mode).toBe("discovery");
		expect(reply.results[0]).toMatchObject({
			sessionId: SAMPLE.branched,
			branchState: "abandoned",
			resumeHint: `pi --session ${SAMPLE.branched}`,
		});
		expect(reply.results[0].context.window.length).toBeGreaterThan(2);
		expect(run.stdout).toContain("TOOL RESULT:");
	});

	it("answers from the sources where no dist/ is built (a clone pulled and not built again): the work in Pi's process, loaded by Pi's jiti", async () => {
		const copy = tempDir("sources-only");
		for (const part of ["src", "wasm", "package.json"]) cpSync(join(REPO, part), join(copy, part), { recursive: true });
		symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"));
		const { reply, run } = await callTool({ query: "RabbitMQ quorum" }, join(copy, "src", "extension", "index.ts"));
		expect(reply?.results[0], run.stderr).toMatchObject({ sessionId: SAMPLE.branched, branchState: "abandoned" });
	});

	it("takes queryVariants: a hit only a variant finds says so", async () => {
		const { reply, details } = await callTool({ query: "cola de mensajes replicada", queryVariants: ["RabbitMQ quorum"] });
		expect(details.mode).toBe("discovery");
		expect(reply.variants).toEqual(["RabbitMQ quorum"]);
		expect(reply.results[0]).toMatchObject({ sessionId: SAMPLE.branched, foundBy: ["RabbitMQ quorum"] });
	});

	it("reads, scrolls and browses", async () => {
		const read = await callTool({ sessionId: SAMPLE.compaction.slice(0, 12) });
		expect(read.reply).toMatchObject({ mode: "read", session: { sessionId: SAMPLE.compaction } });
		const first = read.reply.messages[0];
		const scrolled = await callTool({ sessionId: SAMPLE.compaction, aroundMessageId: first.entryId, window: 1 });
		expect(scrolled.reply.messages.map((m: { entryId: string }) => m.entryId)[0]).toBe(first.entryId);
		const browse = await callTool({});
		expect(browse.reply.mode).toBe("browse");
		expect(browse.reply.sessions.length).toBe(10);
	});

	it("answers the omp session store's actions", async () => {
		const { reply } = await callTool({ action: "content", query: "SQLITE_BUSY", limit: 3 });
		expect(reply).toMatchObject({ action: "content" });
		expect(reply.results[0]).toMatchObject({ session_id: SAMPLE.bash, resume_hint: `pi --session ${SAMPLE.bash}` });
	});

	it("reports a refused session path as a tool error, not a crash", async () => {
		const { isError, text } = await callTool({ sessionId: "/etc/passwd" });
		expect(isError).toBe(true);
		expect(text).toMatch(/refusing "\/etc\/passwd"/);
	});

	it("installs as a Pi package: the tool and the skill reach the model", async () => {
		const home = piHome();
		const install = await pi(["install", REPO], home.env, home.cwd);
		expect(install.code, install.stderr).toBe(0);
		const before = model.current.requests.length;
		const run = await pi(["--provider", "fake", "--model", "fake-model", "-p", "hello"], home.env, home.cwd);
		expect(run.code, run.stderr).toBe(0);
		const request = model.current.requests.slice(before).at(-1)!;
		const system = JSON.stringify(request.messages[0]);
		expect(system).toContain("pi-session-pattern-miner");
		expect(request.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("session_search");
	});

	it("runs /lookback in RPC mode: status, then pick a hit and insert its summary", async () => {
		const home = piHome();
		const [exe, ...before] = release.command;
		const child = spawn(exe, [...before, "--mode", "rpc", "--provider", "fake", "--model", "fake-model", "-e", EXTENSION], {
			cwd: home.cwd,
			env: { ...process.env, ...home.env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" },
		});
		const events: Record<string, unknown>[] = [];
		let buffer = "";
		child.stdout.on("data", (chunk: Buffer) => {
			buffer += chunk.toString("utf8");
			let nl: number;
			while ((nl = buffer.indexOf("\n")) >= 0) {
				const line = buffer.slice(0, nl);
				buffer = buffer.slice(nl + 1);
				if (line.trim()) events.push(JSON.parse(line));
			}
		});
		const send = (o: object) => child.stdin.write(`${JSON.stringify(o)}\n`);
		const waitFor = async (pred: (e: Record<string, unknown>) => boolean, from = 0) => {
			for (let i = 0; i < 300; i++) {
				const found = events.slice(from).find(pred);
				if (found) return found;
				await new Promise((r) => setTimeout(r, 100));
			}
			throw new Error(`timed out; events: ${JSON.stringify(events).slice(0, 2000)}`);
		};
		try {
			send({ type: "prompt", message: "/lookback" });
			const status = await waitFor((e) => e.type === "extension_ui_request" && e.method === "notify");
			expect(String(status.message)).toMatch(/^lookback: 10 sessions, \d+ messages indexed/);
			const mark = events.length;
			send({ type: "prompt", message: "/lookback RabbitMQ quorum" });
			const pick = await waitFor((e) => e.type === "extension_ui_request" && e.method === "select", mark);
			const options = pick.options as string[];
			expect(options[0]).toMatch(/^1\. Order queue: dead-letter handling · webshop/);
			send({ type: "extension_ui_response", id: pick.id, value: options[0] });
			const act = await waitFor((e) => e.type === "extension_ui_request" && e.method === "select" && e.id !== pick.id, mark);
			send({ type: "extension_ui_response", id: act.id, value: (act.options as string[])[0] });
			const after = events.length;
			for (let i = 0; i < 50; i++) {
				send({ type: "get_messages", id: `m${i}` });
				const reply = await waitFor((e) => e.type === "response" && e.id === `m${i}`, after);
				const messages = (reply.data as { messages: { role: string; customType?: string; content: unknown }[] }).messages;
				const inserted = messages.find((m) => m.role === "custom" && m.customType === "lookback");
				if (inserted) {
					expect(JSON.stringify(inserted.content)).toContain("RabbitMQ");
					return;
				}
				await new Promise((r) => setTimeout(r, 100));
			}
			throw new Error("the summary was not inserted");
		} finally {
			child.kill();
		}
	});
});
