/**
 * Cline end to end: the real CLI (pinned in scripts/agents/ensure-cline.mjs) runs a task with a tool call and one
 * that spawns a sub-agent (`spawn_agent`), against a fake OpenAI-compatible model; lookback indexes the transcripts it
 * wrote, keeps a session once deleted and restores it. Its resume (`cline --id <id>`) runs only in its interactive UI
 * (`--json` refuses it), so no resume is driven here.
 */

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookbackJson } from "../cli-json.js";
import { CLINE_INSTALLED, configureCline, runCline, stopClineHub } from "./cline-run.js";
import { startFakeOpenaiModel } from "./fake-openai-server.mjs";

let home = "";
let project = "";
let first = "";
let second = "";
let fake: Awaited<ReturnType<typeof startFakeOpenaiModel>>;

const env = () => ({ HOME: home, PI_CODING_AGENT_DIR: join(home, "pi-agent") });
const lookback = (argv: string[]) => lookbackJson(argv, env());
const sessions = () => join(home, ".cline", "data", "sessions");

type Hit = { sessionId: string; kind: string; [key: string]: unknown };

describe.skipIf(!CLINE_INSTALLED)("Cline's transcripts, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpenaiModel();
		home = mkdtempSync(join(tmpdir(), "cline-home-"));
		mkdirSync(join(home, "pi-agent"), { recursive: true });
		// Outside the temp folder: lookback leaves out the sessions of temporary working directories.
		project = realpathSync(mkdtempSync(join("/var/tmp", "cline-project-")));
		writeFileSync(join(project, "notes.txt"), "the word is ocelot42ridge\n");
		const at = { cwd: project, home, modelUrl: fake.url };
		const auth = await configureCline(at);
		expect(auth.code, auth.stderr).toBe(0);
		const read = await runCline(`Read the notes. CALL read_files {"paths":["${join(project, "notes.txt")}"]}`, at);
		expect(read.code, read.stderr).toBe(0);
		[first] = readdirSync(sessions());
		const spawn = await runCline('Delegate. CALL spawn_agent {"systemPrompt":"You count llamas.","task":"CHILD count the llamas"}', at);
		expect(spawn.code, spawn.stderr).toBe(0);
		second = readdirSync(sessions()).find((n) => n !== first) ?? "";
		expect(second).toMatch(/^\d+_\w+$/);
	}, 600_000);
	afterAll(async () => {
		if (project) await stopClineHub(project);
		await fake?.close();
		for (const dir of [home, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the tool's output, names the agent, the project and the command that resumes it", async () => {
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "cline"]);
		expect(r.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0, newVersions: [] });
		expect(r.results[0]).toMatchObject({
			sessionId: first,
			agent: "cline",
			kind: "session",
			role: "tool",
			cwd: project,
			resumeHint: `cd ${project} && cline --id ${first}`,
		});
		// The prompt as the person typed it, without the CLI's <user_input> wrapper.
		expect(r.results[0].firstPrompt).toBe(`Read the notes. CALL read_files {"paths":["${join(project, "notes.txt")}"]}`);
		const read = JSON.stringify(await lookback(["read", first]));
		for (const word of ["ocelot42ridge", "read_files", "TOOL RESULT"]) expect(read).toContain(word);
	});

	it("links the sub-agent's transcript to the session that spawned it", async () => {
		const r = await lookback(["search", "CHILD count the llamas", "--role", "user", "--agent", "cline"]);
		const sub = (r.results as Hit[]).find((h) => h.kind === "subagent");
		// A sub-agent's transcript names no folder (it has no system prompt of its own): its session is resumed from anywhere.
		expect(sub).toMatchObject({ agent: "cline", spawnedBySessionId: second, resumeHint: `cline --id ${second}` });
		expect(sub?.sessionId).toMatch(new RegExp(`^${second}__agent_\\d+_\\w+$`));
		const structure = JSON.stringify(await lookback(["read", second]));
		expect(structure).toContain("spawn_agent");
	});

	it("counts every answer's model, provider and tokens in lookback usage, the sub-agent's too", async () => {
		const r = await lookback(["usage", "--by", "model", "--agent", "cline"]);
		expect(r.rows.map((row: { key: string; provider: string }) => [row.key, row.provider])).toEqual([["fake-model", "openai-compatible"]]);
		// Five answers of the fake model: 100 prompt tokens of which 40 cached, 10 completion tokens each.
		expect(r.total).toMatchObject({ sessions: 3, messages: 5, input: 300, cacheRead: 200, output: 50, toolCalls: 2 });
	});

	it("keeps a deleted session and restores it byte for byte", async () => {
		await lookback(["index"]);
		const file = join(realpathSync(sessions()), first, `${first}.messages.json`);
		const bytes = readFileSync(file);
		rmSync(join(sessions(), first), { recursive: true });
		const gone = (await lookback(["search", "ocelot42ridge", "--agent", "cline"])).results[0];
		expect(gone).toMatchObject({ sessionId: first, source: "gone" });
		const restored = await lookback(["restore", first]);
		expect(restored.files.map((f: { outcome: string }) => f.outcome)).toEqual(["written"]);
		expect(readFileSync(file).equals(bytes)).toBe(true);
	});
});
