/**
 * Claude Code end to end: the real CLI (pinned in scripts/agents/ensure-claude.mjs) runs a named task with a tool
 * call, a resume, a sub-agent, a compaction, a rewind (a resume at an earlier answer) and a fork against a fake
 * model; lookback indexes what it wrote.
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { claudeInstalled, runClaude } from "./claude-run.js";
import { startFakeAnthropic } from "./fake-anthropic-server.mjs";

let home = "";
let project = "";
let sessionId = "";
let forkId = "";
let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;

async function lookback(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: home, PI_CODING_AGENT_DIR: join(home, "pi-agent"), CLAUDE_CONFIG_DIR: join(home, ".claude") },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

describe.skipIf(!claudeInstalled())("Claude Code's sessions, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeAnthropic({
			reply: (text) =>
				/create a detailed summary/i.test(text) ? "SUMMARY: the zebra migration settled on pgbouncer transaction mode" : undefined,
		});
		// Kept for the whole file (the helpers' temp dirs go after each test).
		home = mkdtempSync(join(tmpdir(), "claude-home-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "claude-project-")));
		mkdirSync(join(home, "pi-agent"), { recursive: true });
		writeFileSync(join(project, "notes.txt"), "the zebra migration uses pgbouncer transaction mode\n");
		const at = { cwd: project, home, modelUrl: fake.url };
		// -n names the session (a custom-title line): its title.
		const first = await runClaude(["-p", `CALL Read {"file_path":"${join(project, "notes.txt")}"}`, "-n", "Zebra migration notes"], at);
		expect(first.code, first.stderr).toBe(0);
		sessionId = first.json?.session_id ?? "";
		expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
		const steps = [
			// Output too long to inline: Claude Code keeps it in <session>/tool-results/, and only a preview in the transcript.
			["-r", sessionId, "-p", 'CALL Bash {"command":"seq 1 60000; echo capy$((40+2))bara","description":"count"}'],
			[
				"-r",
				sessionId,
				"-p",
				'CALL Agent {"description":"look for walrus","prompt":"find the walrus configuration","subagent_type":"general-purpose"}',
			],
			["-r", sessionId, "-p", "/compact"],
			["-r", sessionId, "-p", "after the compaction we talk about the narwhal"],
			["-r", sessionId, "-p", "a question about the tapir we will take back"],
		];
		for (const args of steps) {
			const r = await runClaude(args, at);
			expect(r.code, r.stderr).toBe(0);
			expect(r.json?.session_id).toBe(sessionId);
		}
		// A rewind: resumed at the narwhal's answer (--resume-session-at, what the interactive rewind does), the tapir turn is left behind.
		const file = join(home, ".claude", "projects", readdirSync(join(home, ".claude", "projects"))[0], `${sessionId}.jsonl`);
		const records = readFileSync(file, "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		const tapir = records.findIndex((r) => r.type === "user" && JSON.stringify(r.message?.content).includes("tapir"));
		const narwhalAnswer = records.slice(0, tapir).findLast((r) => r.type === "assistant");
		const rewound = await runClaude(["-r", sessionId, "--resume-session-at", narwhalAnswer.uuid, "-p", "after the rewind: capybarine"], at);
		expect(rewound.code, rewound.stderr).toBe(0);
		const fork = await runClaude(["-r", sessionId, "--fork-session", "-p", "a forked question about the okapi"], at);
		expect(fork.code, fork.stderr).toBe(0);
		forkId = fork.json?.session_id ?? "";
		expect(forkId).not.toBe(sessionId);
	}, 600_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds a tool result, names the agent, the project, the title and the command that resumes it", async () => {
		const r = await lookback(["search", "pgbouncer transaction", "--agent", "claude"]);
		expect(r.code, r.stderr).toBe(0);
		const hit = r.json.results.find((h: { sessionId: string }) => h.sessionId === sessionId);
		expect(hit).toMatchObject({
			agent: "claude",
			cwd: project,
			name: "Zebra migration notes",
			resumeHint: `cd ${project} && claude -r ${sessionId}`,
		});
		expect(r.json.sync.unknownRecords).toBe(0);
		expect(r.json.sync.newVersions).toEqual([]);
	});

	it("finds a tool's output that Claude Code kept beside the session, past the preview in the transcript", async () => {
		// The word is made by the shell: only the output has it, and only past the preview's first 2 KB.
		const r = await lookback(["search", "capy42bara", "--agent", "claude"]);
		expect(r.json.results[0]).toMatchObject({ sessionId, role: "tool" });
	});

	it("keeps the tree through bookkeeping lines: work before the compaction is compacted, after it active", async () => {
		const tool = await lookback(["search", "zebra migration", "--role", "tool", "--agent", "claude"]);
		const before = tool.json.results.find((h: { sessionId: string }) => h.sessionId === sessionId);
		expect(before.branchState).toBe("compacted");
		const after = await lookback(["search", "narwhal", "--agent", "claude"]);
		const hit = after.json.results.find((h: { sessionId: string }) => h.sessionId === sessionId);
		expect(hit).toMatchObject({ role: "user", branchState: "active" });
		const summary = await lookback(["search", "continued from a previous conversation", "--role", "summary"]);
		expect(summary.json.results.map((h: { sessionId: string }) => h.sessionId)).toContain(sessionId);
	});

	it("leaves the turn a resume rewound past abandoned, and what followed the rewind active", async () => {
		const gone = await lookback(["search", "tapir", "--agent", "claude"]);
		expect(gone.json.results[0]).toMatchObject({ sessionId, branchState: "abandoned" });
		const after = await lookback(["search", "capybarine", "--agent", "claude"]);
		const hit = after.json.results.find((h: { sessionId: string }) => h.sessionId === sessionId);
		expect(hit).toMatchObject({ role: "user", branchState: "active" });
	});

	it("links the sub-agent's transcript to its session and to the call that spawned it", async () => {
		const r = await lookback(["search", "walrus configuration", "--agent", "claude"]);
		const sub = r.json.results.find((h: { kind: string }) => h.kind === "subagent");
		expect(sub).toMatchObject({ agent: "claude", spawnedBySessionId: sessionId, resumeHint: `cd ${project} && claude -r ${sessionId}` });
		expect(sub.spawnedByEntryId).toBeTruthy();
		const read = await lookback(["read", sessionId, "--around", sub.spawnedByEntryId, "--window", "1"]);
		expect(read.code, read.stderr).toBe(0);
		expect(JSON.stringify(read.json)).toContain("walrus");
	});

	it("reads the fork as its own session, and a --no-agent run forgets every Claude session", async () => {
		const fork = await lookback(["search", "okapi"]);
		expect(fork.json.results[0]).toMatchObject({ sessionId: forkId, agent: "claude", branchState: "active" });
		// --fork-session copies the history with its message ids: each copied message is the parent's, found once,
		// the fork named beside it, and its usage counted once; the fork's own answer is its own.
		const narwhal = await lookback(["search", "narwhal", "--role", "user", "--agent", "claude"]);
		expect(narwhal.json.results.map((h: { sessionId: string; hits: number }) => [h.sessionId, h.hits])).toEqual([[sessionId, 1]]);
		expect(narwhal.json.results[0].forks.map((f: { sessionId: string }) => f.sessionId)).toEqual([forkId]);
		const usage = await lookback(["usage", "--by", "session", "--agent", "claude"]);
		const answers = Object.fromEntries(usage.json.rows.map((r: { key: string; messages: number }) => [r.key, r.messages]));
		expect(answers[forkId]).toBe(1);
		expect(answers[sessionId]).toBeGreaterThan(1);
		const gone = await lookback(["search", "okapi", "--no-agent", "claude"]);
		expect(gone.json.results).toEqual([]);
		expect(gone.json.sync.purged).toBeGreaterThanOrEqual(3);
	});
});
