/**
 * GitHub Copilot CLI end to end: the real CLI (pinned in scripts/agents/ensure-copilot.mjs) runs a task with a tool
 * call, then a `--resume=<id>` that delegates to a sub-agent (its `task` tool), offline against a fake
 * OpenAI-compatible model; lookback indexes the events it wrote, the sub-agent's conversation beside the session's,
 * keeps the session once deleted and restores it, and the real CLI resumes the restored session.
 */

import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookbackJson } from "../cli-json.js";
import { COPILOT_INSTALLED, runCopilot } from "./copilot-run.js";
import { startFakeOpenaiModel } from "./fake-openai-server.mjs";

let home = "";
let project = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpenaiModel>>;

const env = () => ({ HOME: home, PI_CODING_AGENT_DIR: join(home, "pi-agent") });
const lookback = (argv: string[]) => lookbackJson(argv, env());

type Hit = { sessionId: string; kind: string; [key: string]: unknown };

describe.skipIf(!COPILOT_INSTALLED)("GitHub Copilot CLI's sessions, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpenaiModel();
		home = mkdtempSync(join(tmpdir(), "copilot-home-"));
		mkdirSync(join(home, "pi-agent"), { recursive: true });
		// Outside the temp folder: lookback leaves out the sessions of temporary working directories.
		project = realpathSync(mkdtempSync(join("/var/tmp", "copilot-project-")));
		writeFileSync(join(project, "notes.txt"), "the word is ocelot42ridge\n");
		const at = { cwd: project, home, modelUrl: fake.url };
		const first = await runCopilot(`Read the notes. CALL view {"path":"${join(project, "notes.txt")}"}`, at);
		expect(first.code, first.stderr).toBe(0);
		sessionId = first.sessionId ?? "";
		expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
		const task = `Delegate. CALL task {"description":"Count llamas","prompt":"CHILD count the llamas","agent_type":"general-purpose","name":"llama-counter","mode":"sync"}`;
		const second = await runCopilot(task, { ...at, flags: [`--resume=${sessionId}`] });
		expect(second.code, second.stderr).toBe(0);
		expect(second.sessionId).toBe(sessionId);
	}, 600_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the tool's output, names the agent, the project and the command that resumes it", async () => {
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "copilot"]);
		expect(r.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0, newVersions: [] });
		expect(r.results[0]).toMatchObject({
			sessionId,
			agent: "copilot",
			kind: "session",
			role: "tool",
			cwd: project,
			resumeHint: `copilot --resume=${sessionId}`,
		});
		expect(r.results[0].path).toBe(join(home, ".copilot", "session-state", sessionId, "events.jsonl"));
		const read = await lookback(["read", sessionId]);
		const text = JSON.stringify(read);
		for (const word of ["ocelot42ridge", "view", "Delegate", "TOOL RESULT: Child agent here"]) expect(text).toContain(word);
	});

	it("keeps the sub-agent's conversation off the session's, naming the task call that spawned it", async () => {
		const r = await lookback(["search", "Child agent here", "--role", "assistant", "--agent", "copilot"]);
		const child = (r.results as Hit[]).find((h) => h.branchState !== "active");
		expect(child).toMatchObject({ sessionId, kind: "session" });
		expect(child?.spawnedByEntryId).toEqual(expect.any(String));
		const read = await lookback(["read", sessionId, "--around", String(child?.spawnedByEntryId), "--window", "1"]);
		expect(JSON.stringify(read)).toContain("CHILD count the llamas");
		// The session goes on from the call's result, not from the sub-agent's last answer.
		const last = await lookback(["search", "TOOL RESULT: Child agent here", "--agent", "copilot"]);
		expect(last.results[0]).toMatchObject({ sessionId, role: "assistant", branchState: "active" });
	});

	it("counts every model call's tokens in lookback usage, the sub-agent's too", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "copilot"]);
		expect(r.rows.map((row: { key: string; provider: string }) => [row.key, row.provider])).toEqual([["fake-model", "openai"]]);
		// Five calls to the fake model: 100 prompt tokens of which 40 cached, 10 completion tokens each.
		expect(r.total).toMatchObject({ sessions: 1, messages: 5, input: 300, cacheRead: 200, output: 50, toolCalls: 2 });
	});

	it("keeps a deleted session, restores it byte for byte, and `copilot --resume` picks it up from its history", async () => {
		await lookback(["index"]);
		const [hit] = (await lookback(["search", "ocelot42ridge", "--agent", "copilot"])).results;
		const file: string = hit.path;
		const bytes = readFileSync(file);
		rmSync(join(home, ".copilot", "session-state", sessionId), { recursive: true });
		const gone = (await lookback(["search", "ocelot42ridge", "--agent", "copilot"])).results[0];
		expect(gone).toMatchObject({ sessionId, source: "gone" });
		const restored = await lookback(["restore", sessionId]);
		expect(restored.files.map((f: { outcome: string }) => f.outcome)).toEqual(["written"]);
		expect(readFileSync(file).equals(bytes)).toBe(true);
		const before = fake.requests.length;
		const resumed = await runCopilot("and the quetzal?", { cwd: project, home, modelUrl: fake.url, flags: [`--resume=${sessionId}`] });
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(JSON.stringify(fake.requests.slice(before))).toContain("ocelot42ridge");
	});
});
