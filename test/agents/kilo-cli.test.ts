/**
 * Kilo Code end to end: the real CLI (pinned in scripts/agents/ensure-kilo.mjs, a fork of OpenCode) runs a task with a
 * shell call and a resume that spawns a sub-agent (its task tool: a child session), against the fake OpenAI-compatible
 * server OpenCode's tests use; lookback indexes the database it wrote (its commits still in the WAL), reads it while
 * Kilo runs, serves it to MCP, and once the database is gone restores it as files the real `kilo import` loads.
 */

import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kiloReader } from "../../src/agents/kilo/reader.js";
import { run } from "../../src/cli/main.js";
import { newParseState } from "../../src/core/parse/session-format.js";
import { fileSource } from "../../src/node/file-source.js";
import { CLI, call as callMcp, json, startServer } from "../mcp/mcp-client.js";
import { startFakeOpencodeModel } from "./fake-opencode-server.mjs";
import { configureKilo, kiloBin, runKilo, startKilo } from "./kilo-run.js";

let home = "";
let lookbackHome = "";
let project = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpencodeModel>>;

const dataDir = () => join(home, "data", "kilo");

/** `lookback …` over Kilo's data (or `data`, with a lookback home of its own). */
async function lookback(argv: string[], data?: string, json = true) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, ...(json ? ["--json"] : [])], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: data ? { HOME: join(data, "lookback-home"), XDG_DATA_HOME: data } : { HOME: lookbackHome, XDG_DATA_HOME: join(home, "data") },
		isTTY: false,
	});
	return { code, json: json && stdout ? JSON.parse(stdout) : undefined, stdout, stderr };
}

const entries = (bytes: Uint8Array) =>
	kiloReader.format.parseDocument!(bytes, newParseState())!.entries.map((e) => ({ id: e.id, type: e.type, raw: e.raw }));

type Hit = { sessionId: string; kind: string; role: string; source?: string; [key: string]: unknown };

describe.skipIf(!kiloBin())("Kilo Code's database, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpencodeModel();
		home = mkdtempSync(join(tmpdir(), "kilo-home-"));
		lookbackHome = mkdtempSync(join(tmpdir(), "kilo-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "kilo-project-")));
		configureKilo(home, fake.url);
		const at = { cwd: project, home };
		// The word is made by the shell: only the tool's output has it.
		const first = await runKilo("Look around please. SHELL echo ocelot$((6*7))ridge", at);
		expect(first.code, first.stderr).toBe(0);
		sessionId = first.sessionId ?? "";
		expect(sessionId).toMatch(/^ses_/);
		const resumed = await runKilo("Now delegate: TASK count the llamas", { ...at, session: sessionId });
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.sessionId).toBe(sessionId);
	}, 600_000);
	afterAll(async () => {
		fake?.release();
		await fake?.close();
		for (const dir of [home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the shell call's output, names the agent, the project, the title and the command that resumes it", async () => {
		expect(readdirSync(dataDir())).toEqual(expect.arrayContaining(["kilo.db", "kilo.db-wal"]));
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "kilo"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync).toMatchObject({ unknownRecords: 0, newVersions: [], malformedLines: 0 });
		expect(r.json.results[0]).toMatchObject({
			sessionId,
			agent: "kilo",
			kind: "session",
			role: "tool",
			cwd: project,
			// The fake model's answer to Kilo's title request ("Generate a title for this conversation: …").
			name: "Quokka title Generate a title",
			firstPrompt: "Look around please. SHELL echo ocelot$((6*7))ridge",
			resumeHint: `cd ${project} && kilo -s ${sessionId}`,
		});
		expect(r.json.results[0].path).toBe(join(realpathSync(dataDir()), "kilo.db", sessionId));
		expect((await lookback(["search", "ocelot42ridge", "--agent", "opencode"])).json.results).toEqual([]);
	});

	it("links the sub-agent's child session to its parent and to the task call that spawned it", async () => {
		const r = await lookback(["search", "CHILD count the llamas", "--role", "user", "--agent", "kilo"]);
		const sub = (r.json.results as Hit[]).find((h) => h.kind === "subagent");
		expect(sub).toMatchObject({
			agent: "kilo",
			spawnedBySessionId: sessionId,
			name: "Counts for the parent (@general subagent)",
			resumeHint: `cd ${project} && kilo -s ${sessionId}`,
		});
		expect(sub?.spawnedBy).toBe(join(realpathSync(dataDir()), "kilo.db", sessionId));
		expect(sub?.spawnedByEntryId).toMatch(/^prt_/);
		const read = await lookback(["read", sessionId, "--around", String(sub?.spawnedByEntryId), "--window", "1"]);
		expect(read.code, read.stderr).toBe(0);
		expect(JSON.stringify(read.json)).toContain(String(sub?.sessionId));
	});

	it("counts every answer's model, provider and tokens in lookback usage, the sub-agent's too", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "kilo"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.rows.map((row: { key: string; provider: string }) => [row.key, row.provider])).toEqual([["m", "fake"]]);
		// The fake model's every call: 100 prompt tokens of which 40 cached, 10 completion tokens.
		const t = r.json.total;
		expect(t).toMatchObject({ sessions: 2, toolCalls: 2, output: 10 * t.messages, cacheRead: 40 * t.messages, input: 60 * t.messages });
		expect(t.messages).toBeGreaterThanOrEqual(4);
	});

	it("reads each session as Kilo's own export prints it", async () => {
		const exported = await startKilo(["export", sessionId], { cwd: project, home });
		expect(exported.code, exported.stderr).toBe(0);
		const ours = await fileSource([{ path: dataDir(), layout: "kilo", agent: "kilo" }]).readDocument!(
			join(realpathSync(dataDir()), "kilo.db", sessionId),
		);
		const theirs = entries(new TextEncoder().encode(exported.stdout.slice(exported.stdout.indexOf("{"))));
		expect(theirs.length).toBeGreaterThan(5);
		expect(entries(ours)).toEqual(theirs);
	});

	it("finds a prompt Kilo has committed only to its WAL, while it runs, touching nothing beside the database", async () => {
		const running = runKilo("WAIT for the wombat", { cwd: project, home, session: sessionId });
		await fake.held();
		const names = readdirSync(dataDir()).sort();
		const stamps = () => names.map((n) => ({ n, ...((s) => ({ size: s.size, mtimeMs: s.mtimeMs }))(statSync(join(dataDir(), n))) }));
		const before = stamps();
		const r = await lookback(["search", "wombat", "--agent", "kilo"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.results[0]).toMatchObject({ sessionId, role: "user" });
		expect(readdirSync(dataDir()).sort()).toEqual(names);
		expect(stamps()).toEqual(before);
		fake.release();
		const done = await running;
		expect(done.code, done.stderr).toBe(0);
		const again = await lookback(["search", "wombat", "--agent", "kilo"]);
		expect(again.json.sync.rewritten).toBeGreaterThanOrEqual(1);
	}, 120_000);

	it.skipIf(!statSync(CLI, { throwIfNoEntry: false }))(
		"serves Kilo's sessions to an MCP client, filtered by agent",
		async () => {
			const agentDir = join(lookbackHome, "mcp-agent");
			mkdirSync(agentDir, { recursive: true });
			const server = await startServer(agentDir, { env: { HOME: lookbackHome, XDG_DATA_HOME: join(home, "data") } });
			try {
				const hits = json(await callMcp(server, "search_sessions", { query: "ocelot42ridge", agent: "kilo" }));
				expect((hits.results as Hit[])[0]).toMatchObject({ sessionId, agent: "kilo" });
				const whole = json(await callMcp(server, "read_session", { sessionId }));
				expect(whole.session).toMatchObject({ agent: "kilo", sessionId });
			} finally {
				await server.close();
			}
		},
		60_000,
	);

	it("once the database is gone, reads the archive's copy and restores it as files the real `kilo import` loads", async () => {
		// A copy of Kilo's data folder that lookback alone reads; removed as a person would remove Kilo.
		const copy = join(lookbackHome, "copy");
		// Kilo's folder only: lookback's own data folder lies in the same XDG_DATA_HOME.
		cpSync(join(home, "data"), copy, { recursive: true, filter: (from) => from !== join(home, "data", "lookback") });
		expect((await lookback(["index"], copy)).json.sync.added).toBeGreaterThanOrEqual(2);
		rmSync(join(copy, "kilo"), { recursive: true });
		expect((await lookback(["index"], copy)).json.sync.gone).toBeGreaterThanOrEqual(2);
		const gone = await lookback(["read", sessionId], copy, false);
		expect(gone.stdout).toContain("Kilo Code's database no longer holds it");
		const restored = await lookback(["restore", sessionId], copy);
		expect(restored.code, restored.stderr).toBe(0);
		const files = restored.json.files as { path: string; outcome: string }[];
		try {
			expect(files.map((f) => f.outcome)).toEqual(["written", "written"]);
			expect(restored.json.resumeHint).toBe(
				`cd ${project} && ${files.map((f) => `kilo import ${f.path}`).join(" && ")} && kilo -s ${sessionId}`,
			);
			expect(readdirSync(copy)).not.toContain("kilo");
			const text = await lookback(["restore", sessionId], copy, false);
			expect(text.code, text.stderr).toBe(0);
			expect(text.stdout).toContain("lookback never writes Kilo Code's database");
			for (const p of text.stdout.match(/\/\S+\/ses_\w+\.json/g) ?? []) rmSync(dirname(p), { recursive: true, force: true });
			// The real Kilo loads them into a fresh home: the session is its own again, as it was.
			const fresh = join(lookbackHome, "kilo-again");
			configureKilo(fresh, fake.url);
			for (const f of files) {
				const imported = await startKilo(["import", f.path], { cwd: project, home: fresh });
				expect(imported.code, imported.stderr).toBe(0);
			}
			const exported = await startKilo(["export", sessionId], { cwd: project, home: fresh });
			expect(exported.code, exported.stderr).toBe(0);
			expect(entries(new TextEncoder().encode(exported.stdout.slice(exported.stdout.indexOf("{"))))).toEqual(
				entries(new Uint8Array(readFileSync(files[0].path))),
			);
		} finally {
			for (const f of files) rmSync(dirname(f.path), { recursive: true, force: true });
		}
	}, 180_000);
});
