/**
 * Continue end to end: the real `cn` (pinned in scripts/agents/ensure-continue.mjs) runs a task with a tool call and a
 * `--resume` (its newest session), against a fake OpenAI-compatible model; lookback indexes the session document it
 * wrote, keeps it once deleted and restores it, and the real CLI goes on from the restored session (`--fork <id>`).
 * `cn -p` has no sub-agents (its beta Subagent tool finds no session in headless mode) and leaves every session
 * "Untitled Session" (a title is generated or set with /title in its interactive UI only).
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookbackJson } from "../cli-json.js";
import { CONTINUE_INSTALLED, configureContinue, runContinue } from "./continue-run.js";
import { startFakeOpenaiModel } from "./fake-openai-server.mjs";

let home = "";
let project = "";
let config = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpenaiModel>>;

const env = () => ({ HOME: home, PI_CODING_AGENT_DIR: join(home, "pi-agent") });
const lookback = (argv: string[]) => lookbackJson(argv, env());
const sessions = () => join(home, ".continue", "sessions");

describe.skipIf(!CONTINUE_INSTALLED)("Continue's sessions, written by the real cn", () => {
	beforeAll(async () => {
		fake = await startFakeOpenaiModel();
		home = mkdtempSync(join(tmpdir(), "continue-home-"));
		mkdirSync(join(home, "pi-agent"), { recursive: true });
		// Outside the temp folder: lookback leaves out the sessions of temporary working directories.
		project = realpathSync(mkdtempSync(join("/var/tmp", "continue-project-")));
		writeFileSync(join(project, "notes.txt"), "the word is ocelot42ridge\n");
		config = configureContinue(home, fake.url);
		const at = { cwd: project, home, config };
		const first = await runContinue(`Read the notes. CALL Read {"filepath":"${join(project, "notes.txt")}"}`, at);
		expect(first.code, first.stderr).toBe(0);
		const second = await runContinue("now we talk about the narwhal", { ...at, flags: ["--resume"] });
		expect(second.code, second.stderr).toBe(0);
		const files = readdirSync(sessions()).filter((n) => n !== "sessions.json");
		expect(files).toHaveLength(1);
		sessionId = files[0].replace(/\.json$/, "");
	}, 600_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the tool's output, names the agent, the project and the command that goes on from it", async () => {
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "continue"]);
		expect(r.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0, newVersions: [] });
		expect(r.results[0]).toMatchObject({
			sessionId,
			agent: "continue",
			kind: "session",
			role: "tool",
			cwd: project,
			resumeHint: `cn --fork ${sessionId}`,
		});
		// The CLI's "Untitled Session" is no title: the first prompt names it.
		expect(r.results[0].name ?? null).toBeNull();
		const after = await lookback(["search", "narwhal", "--agent", "continue"]);
		expect(after.results[0]).toMatchObject({ sessionId, role: "user", branchState: "active" });
		const read = JSON.stringify(await lookback(["read", sessionId]));
		for (const word of ["ocelot42ridge", "Read", "narwhal", "TOOL RESULT"]) expect(read).toContain(word);
	});

	it("counts every answer's model and tokens in lookback usage", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "continue"]);
		expect(r.rows.map((row: { key: string }) => row.key)).toEqual(["fake-model"]);
		// Three answers of the fake model: 100 prompt tokens of which 40 cached, 10 completion tokens each.
		expect(r.total).toMatchObject({ sessions: 1, messages: 3, input: 180, cacheRead: 120, output: 30, toolCalls: 1 });
	});

	it("keeps a deleted session, restores it byte for byte, and `cn --fork` goes on from its history", async () => {
		await lookback(["index"]);
		const file = join(realpathSync(sessions()), `${sessionId}.json`);
		const bytes = readFileSync(file);
		rmSync(file);
		const gone = (await lookback(["search", "ocelot42ridge", "--agent", "continue"])).results[0];
		expect(gone).toMatchObject({ sessionId, source: "gone" });
		const restored = await lookback(["restore", sessionId]);
		expect(restored.files.map((f: { outcome: string }) => f.outcome)).toEqual(["written"]);
		expect(readFileSync(file).equals(bytes)).toBe(true);
		const before = fake.requests.length;
		const forked = await runContinue("and the quetzal?", { cwd: project, home, config, flags: ["--fork", sessionId] });
		expect(forked.code, forked.stderr).toBe(0);
		expect(JSON.stringify(fake.requests.slice(before))).toContain("ocelot42ridge");
	});
});
