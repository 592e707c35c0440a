/**
 * OpenClaw end to end: the real CLI (pinned with its Node 24 in scripts/agents/ensure-openclaw.mjs) runs a turn with a
 * shell call and a resume by session id in its embedded runtime, against the fake OpenAI-compatible server; lookback
 * reads the agent's database it wrote (its commits in the WAL) while OpenClaw runs, and serves it to MCP.
 */

import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { CLI, call as callMcp, json, startServer } from "../mcp/mcp-client.js";
import { startFakeOpencodeModel } from "./fake-opencode-server.mjs";
import { configureOpenclaw, openclawInstalled, runOpenclaw } from "./openclaw-run.js";

let home = "";
let lookbackHome = "";
let project = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpencodeModel>>;

const agentFolder = () => join(home, ".openclaw", "agents", "main", "agent");

async function lookback(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: lookbackHome, OPENCLAW_STATE_DIR: join(home, ".openclaw") },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

describe.skipIf(!openclawInstalled())("OpenClaw's agent database, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpencodeModel();
		home = mkdtempSync(join(tmpdir(), "openclaw-home-"));
		lookbackHome = mkdtempSync(join(tmpdir(), "openclaw-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "openclaw-project-")));
		configureOpenclaw(home, fake.url, project);
		const at = { cwd: project, home };
		// The word is made by the shell: only the tool's output has it.
		const first = await runOpenclaw('Look around please. CALL exec {"command":"echo ocelot$((6*7))ridge"}', at);
		expect(first.code, first.stderr).toBe(0);
		sessionId = first.sessionId ?? "";
		expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
		const resumed = await runOpenclaw("Then we talk about the narwhal", { ...at, session: sessionId });
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.sessionId).toBe(sessionId);
	}, 600_000);
	afterAll(async () => {
		fake?.release();
		await fake?.close();
		for (const dir of [home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the shell call's output and the resumed turn in one session, with its project and the command that resumes it", async () => {
		expect(readdirSync(agentFolder())).toEqual(expect.arrayContaining(["openclaw-agent.sqlite", "openclaw-agent.sqlite-wal"]));
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "openclaw"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0 });
		expect(r.json.results[0]).toMatchObject({
			sessionId,
			agent: "openclaw",
			kind: "session",
			role: "tool",
			cwd: project,
			firstPrompt: 'Look around please. CALL exec {"command":"echo ocelot$((6*7))ridge"}',
			resumeHint: `openclaw agent --local --session-id ${sessionId} --message "continue"`,
		});
		expect(r.json.results[0].path).toBe(join(realpathSync(agentFolder()), "openclaw-agent.sqlite", sessionId));
		const later = await lookback(["search", "narwhal", "--agent", "openclaw"]);
		expect(later.json.results[0]).toMatchObject({ sessionId, role: "user", branchState: "active" });
	});

	it("counts every answer's model, provider and tokens in lookback usage", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "openclaw"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.rows.map((row: { key: string; provider: string }) => [row.key, row.provider])).toEqual([["m", "fake"]]);
		// The fake model's every call: 100 prompt tokens of which 40 cached, 10 completion tokens.
		const t = r.json.total;
		expect(t).toMatchObject({ sessions: 1, toolCalls: 1, output: 10 * t.messages, cacheRead: 40 * t.messages, input: 60 * t.messages });
		expect(t.messages).toBeGreaterThanOrEqual(3);
	});

	it("finds a prompt OpenClaw has committed only to its WAL, while it runs, touching nothing beside the database", async () => {
		const running = runOpenclaw("WAIT for the wombat", { cwd: project, home, session: sessionId });
		await fake.held();
		const names = ["openclaw-agent.sqlite", "openclaw-agent.sqlite-wal"];
		const stamps = () => names.map((n) => ({ n, ...((s) => ({ size: s.size, mtimeMs: s.mtimeMs }))(statSync(join(agentFolder(), n))) }));
		const before = stamps();
		const r = await lookback(["search", "wombat", "--agent", "openclaw"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.results[0]).toMatchObject({ sessionId, role: "user" });
		expect(stamps()).toEqual(before);
		fake.release();
		const done = await running;
		expect(done.code, done.stderr).toBe(0);
		const again = await lookback(["search", "wombat", "--agent", "openclaw"]);
		expect(again.json.sync.rewritten).toBeGreaterThanOrEqual(1);
	}, 300_000);

	it.skipIf(!statSync(CLI, { throwIfNoEntry: false }))(
		"serves OpenClaw's sessions to an MCP client, filtered by agent",
		async () => {
			const agentDir = join(lookbackHome, "mcp-agent");
			mkdirSync(agentDir, { recursive: true });
			const server = await startServer(agentDir, { env: { HOME: lookbackHome, OPENCLAW_STATE_DIR: join(home, ".openclaw") } });
			try {
				const hits = json(await callMcp(server, "search_sessions", { query: "ocelot42ridge", agent: "openclaw" }));
				expect((hits.results as { sessionId: string; agent: string }[])[0]).toMatchObject({ sessionId, agent: "openclaw" });
			} finally {
				await server.close();
			}
		},
		60_000,
	);

	it("refuses to restore a session of the database, saying why, and writes nothing", async () => {
		const r = await lookback(["restore", sessionId]);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toMatch(/OpenClaw keeps it in its agent's database, which lookback never writes|is not gone/);
	});
});
