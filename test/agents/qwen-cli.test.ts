/**
 * Qwen Code end to end: the real CLI (pinned in scripts/agents/ensure-qwen.mjs) runs a task with a tool call, a
 * `--continue` that delegates to a sub-agent (its `agent` tool), a `--resume <id>`, and a rename through its ACP
 * server (what an IDE sends), against a fake OpenAI-compatible model; lookback indexes what it wrote, keeps it in its
 * archive once deleted, restores it, and the real CLI resumes the restored session.
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookbackJson } from "../cli-json.js";
import { startFakeOpenaiModel } from "./fake-openai-server.mjs";
import { QWEN_INSTALLED, renameQwenSession, runQwen } from "./qwen-run.js";

let home = "";
let project = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpenaiModel>>;

const env = () => ({ HOME: home, PI_CODING_AGENT_DIR: join(home, "pi-agent") });
const lookback = (argv: string[]) => lookbackJson(argv, env());

type Hit = { sessionId: string; kind: string; [key: string]: unknown };

describe.skipIf(!QWEN_INSTALLED)("Qwen Code's chats, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpenaiModel();
		home = mkdtempSync(join(tmpdir(), "qwen-home-"));
		mkdirSync(join(home, "pi-agent"), { recursive: true });
		// Outside the temp folder: lookback leaves out the sessions of temporary working directories.
		project = realpathSync(mkdtempSync(join("/var/tmp", "qwen-project-")));
		writeFileSync(join(project, "notes.txt"), "the word is ocelot42ridge\n");
		const at = { cwd: project, home, modelUrl: fake.url };
		const first = await runQwen(`Read the notes. CALL read_file {"file_path":"${join(project, "notes.txt")}"}`, at);
		expect(first.code, first.stderr).toBe(0);
		const chats = join(home, ".qwen", "projects", project.replace(/[^a-zA-Z0-9]/g, "-"), "chats");
		sessionId = readdirSync(chats)[0].replace(/\.jsonl$/, "");
		const delegate = `Delegate. CALL agent {"description":"Count llamas","prompt":"CHILD count the llamas","subagent_type":"general-purpose","run_in_background":false}`;
		const second = await runQwen(delegate, { ...at, flags: ["--continue"] });
		expect(second.code, second.stderr).toBe(0);
		const third = await runQwen("now we talk about the narwhal", { ...at, flags: ["--resume", sessionId] });
		expect(third.code, third.stderr).toBe(0);
		const renamed = await renameQwenSession(sessionId, "Quokka llama census", at);
		expect(renamed.stdout).toContain('"id":2,"result":{"success":true}');
		expect(readdirSync(chats)).toEqual([`${sessionId}.jsonl`]);
	}, 600_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the tool's output, names the agent, the project, the title and the command that resumes it", async () => {
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "qwen"]);
		expect(r.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0, newVersions: [] });
		expect(r.results[0]).toMatchObject({
			sessionId,
			agent: "qwen",
			kind: "session",
			role: "tool",
			cwd: project,
			name: "Quokka llama census",
			resumeHint: `cd ${project} && qwen --resume ${sessionId}`,
		});
		const after = await lookback(["search", "narwhal", "--agent", "qwen"]);
		expect(after.results[0]).toMatchObject({ sessionId, role: "user", branchState: "active" });
		const read = await lookback(["read", sessionId]);
		const text = JSON.stringify(read);
		for (const word of ["ocelot42ridge", "read_file", "narwhal", "TOOL RESULT"]) expect(text).toContain(word);
	});

	it("links the sub-agent's transcript to its session and to the call that spawned it", async () => {
		const r = await lookback(["search", "CHILD count the llamas", "--role", "user", "--agent", "qwen"]);
		const sub = (r.results as Hit[]).find((h) => h.kind === "subagent");
		expect(sub).toMatchObject({ agent: "qwen", spawnedBySessionId: sessionId, resumeHint: `cd ${project} && qwen --resume ${sessionId}` });
		expect(sub?.sessionId).toMatch(/^agent-general-purpose-call_\d+$/);
		expect(sub?.spawnedByEntryId).toEqual(expect.any(String));
		const read = await lookback(["read", sessionId, "--around", String(sub?.spawnedByEntryId), "--window", "1"]);
		expect(JSON.stringify(read)).toContain(String(sub?.sessionId));
		const browse = await lookback(["browse", "--agent", "qwen"]);
		expect(JSON.stringify(browse)).toContain(sessionId);
	});

	it("counts every answer's model and tokens in lookback usage, the sub-agent's too", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "qwen"]);
		// A sub-agent's lines name no model (its `.meta.json` beside them does, which lookback does not read).
		expect(r.rows.map((row: { key: string }) => row.key)).toEqual(["fake-model", "(no model)"]);
		// The fake model's every answer: 100 prompt tokens of which 40 cached, 10 completion tokens.
		const t = r.total;
		expect(t.sessions).toBe(2);
		expect(t.messages).toBeGreaterThanOrEqual(6);
		expect(t).toMatchObject({ input: 60 * t.messages, cacheRead: 40 * t.messages, output: 10 * t.messages, toolCalls: 2 });
	});

	it("keeps a deleted session, restores it byte for byte, and `qwen --resume` picks it up from its history", async () => {
		await lookback(["index"]);
		const [hit] = (await lookback(["search", "ocelot42ridge", "--agent", "qwen"])).results;
		const file: string = hit.path;
		const bytes = readFileSync(file);
		rmSync(file);
		const gone = (await lookback(["search", "ocelot42ridge", "--agent", "qwen"])).results[0];
		expect(gone).toMatchObject({ sessionId, source: "gone" });
		const restored = await lookback(["restore", sessionId]);
		// The session written back, its sub-agent's transcript still where it was.
		expect(restored.files.map((f: { outcome: string }) => f.outcome)).toEqual(["written", "in-place"]);
		expect(readFileSync(file).equals(bytes)).toBe(true);
		const before = fake.requests.length;
		const resumed = await runQwen("and the quetzal?", { cwd: project, home, modelUrl: fake.url, flags: ["--resume", sessionId] });
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(JSON.stringify(fake.requests.slice(before))).toContain("ocelot42ridge");
	});
});
