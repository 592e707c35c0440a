/**
 * Codex CLI end to end: the real CLI (pinned in scripts/agents/ensure-codex.mjs) runs a task with a shell call, a
 * resume that spawns a sub-agent (forked with the parent's history), a resume that compacts and a name given
 * through its app-server, against a fake Responses API; lookback indexes what it wrote. (A rollback cannot be
 * made here: 0.171.0's `thread/revert` leaves the rollout files as they were and rewrites the history in its SQLite store.)
 */

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { codexInstalled, nameCodexThread, runCodex } from "./codex-run.js";
import { fakeCodexConfig, startFakeCodexModel } from "./fake-codex-server.mjs";

let home = "";
let lookbackHome = "";
let project = "";
let threadId = "";
let fake: Awaited<ReturnType<typeof startFakeCodexModel>>;

async function lookback(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: lookbackHome, CODEX_HOME: home, CLAUDE_CONFIG_DIR: join(lookbackHome, ".claude") },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

describe.skipIf(!codexInstalled())("Codex CLI's rollouts, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeCodexModel();
		// Kept for the whole file (the helpers' temp dirs go after each test).
		home = mkdtempSync(join(tmpdir(), "codex-home-"));
		lookbackHome = mkdtempSync(join(tmpdir(), "codex-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "codex-project-")));
		writeFileSync(join(home, "config.toml"), fakeCodexConfig(fake.url));
		const at = { cwd: project, home };
		// The word is made by the shell: only the tool's output has it.
		const first = await runCodex(["Look around please. SHELL echo ocelot$((6*7))ridge"], at);
		expect(first.code, first.stderr).toBe(0);
		threadId = first.threadId ?? "";
		expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
		const spawn = await runCodex(["resume", threadId, "Now delegate: SPAWN count the llamas"], at);
		expect(spawn.code, spawn.stderr).toBe(0);
		expect(spawn.threadId).toBe(threadId);
		// A tiny auto-compaction limit makes the resumed turn compact what came before.
		const compact = await runCodex(
			["-c", "model_auto_compact_token_limit=50", "resume", threadId, "after the compaction we talk about the narwhal"],
			at,
		);
		expect(compact.code, compact.stderr).toBe(0);
		await nameCodexThread(threadId, "Ocelot ridge notes", at);
	}, 600_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the shell call's output, names the agent, the project, the title and the command that resumes it", async () => {
		// The fake model repeats the output in its answer; the tool's own result is what is asked for here.
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "codex"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync.unknownRecords).toBe(0);
		expect(r.json.sync.newVersions).toEqual([]);
		expect(r.json.sync.malformedLines).toBe(0);
		const hit = r.json.results[0];
		expect(hit).toMatchObject({
			sessionId: threadId,
			agent: "codex",
			kind: "session",
			role: "tool",
			cwd: project,
			name: "Ocelot ridge notes",
			firstPrompt: "Look around please. SHELL echo ocelot$((6*7))ridge",
			resumeHint: `codex resume ${threadId}`,
		});
	});

	it("indexes each prompt once, though Codex writes it as a response item and as an event", async () => {
		const r = await lookback(["search", "delegate llamas", "--role", "user", "--agent", "codex"]);
		const hit = r.json.results.find((h: { sessionId: string }) => h.sessionId === threadId);
		expect(hit.hits).toBe(1);
	});

	it("leaves what came before the compaction compacted, and what follows it active", async () => {
		const before = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "codex"]);
		expect(before.json.results[0].branchState).toBe("compacted");
		const after = await lookback(["search", "narwhal", "--agent", "codex"]);
		expect(after.json.results[0]).toMatchObject({ sessionId: threadId, role: "user", branchState: "active" });
	});

	it("links the sub-agent's rollout to its session, and indexes the parent's history it replays only once", async () => {
		const r = await lookback(["search", "count the llamas", "--agent", "codex"]);
		const sub = r.json.results.find((h: { kind: string }) => h.kind === "subagent");
		expect(sub).toMatchObject({ agent: "codex", spawnedBySessionId: threadId, resumeHint: `codex resume ${threadId}` });
		expect(sub.sessionId).not.toBe(threadId);
		expect(sub.spawnedBy).toMatch(new RegExp(`${threadId}\\.jsonl$`));
		// The spawning call is found by the thread id its result names.
		expect(sub.spawnedByEntryId).toBeTruthy();
		const read = await lookback(["read", threadId, "--around", sub.spawnedByEntryId, "--window", "1"]);
		expect(read.code, read.stderr).toBe(0);
		expect(JSON.stringify(read.json)).toContain(sub.sessionId);
		// The sub-agent's rollout begins with the parent's first prompt replayed: found in the parent only.
		const replayed = await lookback(["search", "Look around please", "--role", "user", "--agent", "codex"]);
		expect(replayed.json.results.map((h: { sessionId: string }) => h.sessionId)).toEqual([threadId]);
		// Its one answer's usage is its own (the fake model's 100 tokens in, 10 out), not the parent's it replays.
		const usage = await lookback(["usage", "--by", "session", "--agent", "codex"]);
		expect(usage.json.rows.find((r: { key: string }) => r.key === sub.sessionId)).toMatchObject({ messages: 1, input: 100, output: 10 });
	});

	it("forgets every Codex session on a --no-agent run", async () => {
		const gone = await lookback(["search", "narwhal", "--no-agent", "codex"]);
		expect(gone.json.results).toEqual([]);
		expect(gone.json.sync.purged).toBeGreaterThanOrEqual(2);
	});
});
