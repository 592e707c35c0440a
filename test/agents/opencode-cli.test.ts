/**
 * OpenCode end to end: the real CLI (pinned in scripts/agents/ensure-opencode.mjs) runs a task with a shell call, a
 * resume that spawns a sub-agent (the task tool), a resume that overflows the model's context (OpenCode compacts)
 * and one after it, against a fake OpenAI-compatible server; lookback indexes the database it wrote, and reads it
 * while OpenCode is still running with its newest commits only in the WAL.
 */

import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opencodeFormat } from "../../src/agents/opencode/format.js";
import { run } from "../../src/cli/main.js";
import { newParseState } from "../../src/core/parse/session-format.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { startFakeOpencodeModel } from "./fake-opencode-server.mjs";
import { writeOpencodeFixture } from "./opencode-fixture.js";
import { configureOpencode, opencodeBin, runOpencode, startOpencode } from "./opencode-run.js";

let home = "";
let lookbackHome = "";
let project = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpencodeModel>>;

const dataDir = () => join(home, "data", "opencode");
/** Sessions the main file holds, read alone (as a reader that ignores the WAL sees it), right after OpenCode's first run. */
let mainAloneSessions = -1;

async function sessionsInMainFile(): Promise<number> {
	const main = new Uint8Array(readFileSync(join(dataDir(), "opencode.db")));
	main[18] = 1;
	main[19] = 1;
	const engine = await loadEngine();
	const alone = new engine.Database(main);
	try {
		const tables = alone.exec("SELECT count(*) FROM sqlite_master WHERE name = 'session'")[0].values[0][0];
		return tables === 0 ? 0 : Number(alone.exec("SELECT count(*) FROM session")[0].values[0][0]);
	} finally {
		alone.close();
	}
}

async function lookback(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: lookbackHome, XDG_DATA_HOME: join(home, "data") },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

type Hit = { sessionId: string; kind: string; role: string; branchState: string; [key: string]: unknown };

describe.skipIf(!opencodeBin())("OpenCode's database, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpencodeModel();
		// Kept for the whole file (the helpers' temp dirs go after each test).
		home = mkdtempSync(join(tmpdir(), "opencode-home-"));
		lookbackHome = mkdtempSync(join(tmpdir(), "opencode-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "opencode-project-")));
		configureOpencode(home, fake.url);
		const at = { cwd: project, home };
		// The word is made by the shell: only the tool's output has it.
		const first = await runOpencode("Look around please. SHELL echo ocelot$((6*7))ridge", at);
		expect(first.code, first.stderr).toBe(0);
		sessionId = first.sessionId ?? "";
		expect(sessionId).toMatch(/^ses_/);
		mainAloneSessions = await sessionsInMainFile();
		for (const prompt of [
			"Now delegate: TASK count the llamas",
			"OVERFLOW fill the context please",
			"after the compaction we talk about the narwhal",
		]) {
			const r = await runOpencode(prompt, { ...at, session: sessionId });
			expect(r.code, r.stderr).toBe(0);
			expect(r.sessionId).toBe(sessionId);
		}
	}, 600_000);
	afterAll(async () => {
		fake?.release();
		await fake?.close();
		if (process.env.LOOKBACK_OPENCODE_FIXTURE && sessionId)
			await writeOpencodeFixture(join(dataDir(), "opencode.db"), join(import.meta.dirname, "..", "fixtures", "opencode", "opencode.db"), {
				project,
				home,
			});
		for (const dir of [home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("needs the WAL: OpenCode exits with its session committed there only, the main file alone holding none", () => {
		expect(mainAloneSessions).toBe(0);
	});

	it("finds the shell call's output, names the agent, the project, the title and the command that resumes it", async () => {
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "opencode"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync.unknownRecords).toBe(0);
		expect(r.json.sync.newVersions).toEqual([]);
		expect(r.json.sync.malformedLines).toBe(0);
		expect(r.json.results[0]).toMatchObject({
			sessionId,
			agent: "opencode",
			kind: "session",
			role: "tool",
			cwd: project,
			project: project.split("/").pop(),
			// The fake model's answer to OpenCode's title request.
			name: "Quokka title Look around please.",
			firstPrompt: "Look around please. SHELL echo ocelot$((6*7))ridge",
			resumeHint: `cd ${project} && opencode -s ${sessionId}`,
		});
		expect(r.json.results[0].path).toBe(join(realpathSync(dataDir()), "opencode.db", sessionId));
	});

	it("leaves what came before the compaction compacted, finds the summary, and what follows it active", async () => {
		const before = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "opencode"]);
		expect(before.json.results[0].branchState).toBe("compacted");
		const summary = await lookback(["search", "SUMMARY OF EARLIER WORK", "--role", "summary", "--agent", "opencode"]);
		expect(summary.json.results[0]).toMatchObject({ sessionId, role: "summary", branchState: "active" });
		const after = await lookback(["search", "narwhal", "--agent", "opencode"]);
		expect(after.json.results[0]).toMatchObject({ sessionId, role: "user", branchState: "active" });
		// OpenCode's "Continue if you have next steps" after a compaction is the harness's, not the person's.
		const injected = await lookback(["search", "Continue if you have next steps", "--agent", "opencode"]);
		expect(injected.json.results[0]).toMatchObject({ sessionId, role: "meta" });
	});

	it("links the sub-agent's session to its parent and to the task call that spawned it", async () => {
		const r = await lookback(["search", "count the llamas", "--agent", "opencode"]);
		const sub = (r.json.results as Hit[]).find((h) => h.kind === "subagent");
		expect(sub).toMatchObject({
			agent: "opencode",
			spawnedBySessionId: sessionId,
			resumeHint: `cd ${project} && opencode -s ${sessionId}`,
		});
		expect(sub?.sessionId).toMatch(/^ses_/);
		expect(sub?.sessionId).not.toBe(sessionId);
		expect(sub?.spawnedBy).toBe(join(realpathSync(dataDir()), "opencode.db", sessionId));
		expect(sub?.spawnedByEntryId).toMatch(/^prt_/);
		const read = await lookback(["read", sessionId, "--around", String(sub?.spawnedByEntryId), "--window", "1"]);
		expect(read.code, read.stderr).toBe(0);
		expect(JSON.stringify(read.json)).toContain(String(sub?.sessionId));
		// The prompt the task call gave the child is the child's first prompt (in the parent it is the call's argument).
		const child = await lookback(["search", "CHILD count the llamas", "--role", "user", "--agent", "opencode"]);
		expect((child.json.results as Hit[]).map((h) => h.sessionId)).toEqual([sub?.sessionId]);
	});

	it("counts every answer's model, provider and tokens in lookback usage, the compaction's summary and the sub-agent's", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "opencode"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.rows.map((row: { key: string; provider: string }) => [row.key, row.provider])).toEqual([["m", "fake"]]);
		// The fake model's every call: 100 prompt tokens of which 40 cached, 10 completion tokens; 9000 prompt tokens
		// for the one that overflows. The answers (how many OpenCode makes varies by a step) and the summary (tokens only).
		const t = r.json.total;
		expect(t).toMatchObject({ sessions: 2, toolCalls: 2, output: 10 * (t.messages + 1), cacheRead: 40 * (t.messages + 1) });
		expect(t.input).toBe(60 * t.messages + 8960);
		expect(t.messages).toBeGreaterThanOrEqual(6);
	});

	it("reads each session as OpenCode's own export prints it", async () => {
		const exported = await startOpencode(["export", sessionId], { cwd: project, home });
		expect(exported.code, exported.stderr).toBe(0);
		const ours = await fileSource([{ path: dataDir(), layout: "opencode", agent: "opencode" }]).readDocument!(
			join(realpathSync(dataDir()), "opencode.db", sessionId),
		);
		const entries = (bytes: Uint8Array) =>
			opencodeFormat.parseDocument!(bytes, newParseState())!.entries.map((e) => ({ id: e.id, type: e.type, raw: e.raw }));
		const theirs = entries(new TextEncoder().encode(exported.stdout.slice(exported.stdout.indexOf("{"))));
		expect(theirs.length).toBeGreaterThan(10);
		expect(entries(ours)).toEqual(theirs);
	});

	it("finds a prompt OpenCode has committed only to its WAL, while it runs, touching nothing beside the database", async () => {
		const running = runOpencode("WAIT for the wombat", { cwd: project, home, session: sessionId });
		await fake.held();
		const names = readdirSync(dataDir()).sort();
		expect(names).toEqual(expect.arrayContaining(["opencode.db", "opencode.db-wal", "opencode.db-shm"]));
		const stamps = () => names.map((n) => ({ n, ...((s) => ({ size: s.size, mtimeMs: s.mtimeMs }))(statSync(join(dataDir(), n))) }));
		const before = stamps();
		// Read alone, the main file does not have the prompt yet (as a naive reader would see it, in rollback mode).
		const main = new Uint8Array(readFileSync(join(dataDir(), "opencode.db")));
		main[18] = 1;
		main[19] = 1;
		const engine = await loadEngine();
		const alone = new engine.Database(main);
		expect(alone.exec("SELECT count(*) FROM part WHERE data LIKE '%wombat%'")[0].values[0][0]).toBe(0);
		alone.close();
		const r = await lookback(["search", "wombat", "--agent", "opencode"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.results[0]).toMatchObject({ sessionId, role: "user" });
		expect(readdirSync(dataDir()).sort()).toEqual(names);
		expect(stamps()).toEqual(before);
		fake.release();
		const done = await running;
		expect(done.code, done.stderr).toBe(0);
		// The answer OpenCode committed once released: the session changed, and is read again whole.
		const after = await lookback(["search", "wombat", "--agent", "opencode"]);
		expect(after.json.sync.rewritten).toBeGreaterThanOrEqual(1);
		expect(after.json.results[0]).toMatchObject({ sessionId, role: "user" });
	}, 120_000);

	it("reads an unchanged session no more, and forgets every OpenCode session on a --no-agent run", async () => {
		const again = await lookback(["search", "narwhal", "--agent", "opencode"]);
		expect(again.json.sync).toMatchObject({ added: 0, rewritten: 0, filesParsed: 0, bytesRead: 0 });
		const gone = await lookback(["search", "narwhal", "--no-agent", "opencode"]);
		expect(gone.json.results).toEqual([]);
		expect(gone.json.sync.purged).toBeGreaterThanOrEqual(2);
	});
});
