/**
 * OpenCode's forks, written by the real CLI (`opencode run -s <id> --fork`) against the fake model: the fork holds
 * copies of its session's messages and parts with new ids and their times, and nothing naming where they came from.
 * lookback names the fork's source as its parent, its copies as what they copy: the copied history is found once
 * (the fork named beside the hit), its usage counted once, the fork's own turn its own, and reading the fork still
 * gives the whole conversation.
 */

import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { startFakeOpencodeModel } from "./fake-opencode-server.mjs";
import { configureOpencode, opencodeBin, runOpencode, startOpencode } from "./opencode-run.js";

let home = "";
let lookbackHome = "";
let project = "";
let sessionId = "";
let forkId = "";
let fake: Awaited<ReturnType<typeof startFakeOpencodeModel>>;

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

type Hit = { sessionId: string; hits: number; forks: { sessionId: string }[]; parentSessionId?: string };

describe.skipIf(!opencodeBin())("OpenCode's forks, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpencodeModel();
		home = mkdtempSync(join(tmpdir(), "opencode-fork-home-"));
		lookbackHome = mkdtempSync(join(tmpdir(), "opencode-fork-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "opencode-fork-project-")));
		configureOpencode(home, fake.url);
		const at = { cwd: project, home };
		const first = await runOpencode("Tell me about the wombat please. SHELL echo ocelot$((6*7))ridge", at);
		expect(first.code, first.stderr).toBe(0);
		sessionId = first.sessionId ?? "";
		const second = await runOpencode("and the quokka too", { ...at, session: sessionId });
		expect(second.code, second.stderr).toBe(0);
		const fork = await startOpencode(
			["run", "--format", "json", "-m", "fake/m", "-s", sessionId, "--fork", ..."the forked turn about the pangolin".split(" ")],
			at,
		);
		expect(fork.code, fork.stderr).toBe(0);
		forkId = fork.sessionId ?? "";
		expect(forkId).toMatch(/^ses_/);
		expect(forkId).not.toBe(sessionId);
	}, 600_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the fork's own turn in the fork, which names the session it was forked from", async () => {
		const r = await lookback(["search", "pangolin", "--agent", "opencode"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0 });
		expect(r.json.results.map((h: Hit) => [h.sessionId, h.parentSessionId])).toEqual([[forkId, sessionId]]);
	});

	it("finds the copied history once, in the session it was copied from, the fork named beside it", async () => {
		for (const [query, role] of [
			["wombat", "user"],
			["quokka", "user"],
			["ocelot42ridge", "tool"],
		]) {
			const r = await lookback(["search", query, "--role", role, "--agent", "opencode"]);
			expect(
				r.json.results.map((h: Hit) => [h.sessionId, h.hits, h.forks.map((f) => f.sessionId)]),
				query,
			).toEqual([[sessionId, 1, [forkId]]]);
		}
	});

	it("counts the copied answers' usage once, and the fork's own answer in the fork", async () => {
		const r = await lookback(["usage", "--by", "session", "--agent", "opencode"]);
		const answers = Object.fromEntries(r.json.rows.map((row: { key: string; messages: number }) => [row.key, row.messages]));
		expect(answers[forkId]).toBe(1);
		expect(answers[sessionId]).toBeGreaterThanOrEqual(2);
		const total = r.json.total;
		expect(total.messages).toBe(answers[forkId] + answers[sessionId]);
	});

	it("reads the fork whole: the history it copied, then its own turn", async () => {
		const r = await lookback(["read", forkId]);
		expect(r.code, r.stderr).toBe(0);
		const said = r.json.messages.filter((m: { role: string }) => m.role === "user").map((m: { text: string }) => m.text);
		expect(said).toEqual([
			"Tell me about the wombat please. SHELL echo ocelot$((6*7))ridge",
			"and the quokka too",
			"the forked turn about the pangolin",
		]);
	});
});
