/**
 * Factory Droid end to end: the real CLI (pinned in scripts/agents/ensure-droid.mjs) runs a task with a shell call, its
 * custom model the fake OpenAI-compatible server; lookback indexes the file it wrote, names the session by the title
 * Droid gave it, and serves it to MCP. Its resume (`droid exec -s <id>`) asks Factory's servers for the session first
 * and exits 1 offline ("Was there a typo in the url or port?" in its log): not driven here.
 */

import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { CLI, call as callMcp, json, startServer } from "../mcp/mcp-client.js";
import { configureDroid, droidBin, runDroid } from "./droid-run.js";
import { startFakeOpencodeModel } from "./fake-opencode-server.mjs";

// Droid's shell tool refuses a call without its risk level.
const PROMPT =
	'Look around please. CALL Execute {"command":"echo ocelot$((6*7))ridge","riskLevelReason":"It prints a word","riskLevel":"low"}';

let home = "";
let lookbackHome = "";
let project = "";
let sessionId = "";
let fake: Awaited<ReturnType<typeof startFakeOpencodeModel>>;

async function lookback(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: lookbackHome, FACTORY_HOME_OVERRIDE: home },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

describe.skipIf(!droidBin())("Factory Droid's sessions, written by the real CLI", () => {
	beforeAll(async () => {
		fake = await startFakeOpencodeModel();
		home = mkdtempSync(join(tmpdir(), "droid-home-"));
		lookbackHome = mkdtempSync(join(tmpdir(), "droid-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "droid-project-")));
		configureDroid(home, fake.url);
		const first = await runDroid(PROMPT, { cwd: project, home });
		expect(first.code, first.stderr).toBe(0);
		const folder = join(home, ".factory", "sessions", project.replaceAll("/", "-"));
		const files = readdirSync(folder).filter((n) => n.endsWith(".jsonl"));
		expect(files).toHaveLength(1);
		sessionId = files[0].replace(/\.jsonl$/, "");
	}, 300_000);
	afterAll(async () => {
		await fake?.close();
		for (const dir of [home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the shell call's output, names the agent, the project, the title and the command that resumes it", async () => {
		const r = await lookback(["search", "ocelot42ridge", "--role", "tool", "--agent", "droid"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync).toMatchObject({ unknownRecords: 0, newVersions: [], malformedLines: 0 });
		expect(r.json.results[0]).toMatchObject({
			sessionId,
			agent: "droid",
			role: "tool",
			cwd: project,
			// Droid titles a session with its first prompt.
			name: PROMPT,
			firstPrompt: PROMPT,
			resumeHint: `cd ${project} && droid --resume ${sessionId}`,
		});
		const call = await lookback(["search", "ocelot", "--role", "assistant", "--agent", "droid"]);
		expect(JSON.stringify(call.json.results[0])).toContain("Execute");
		// Droid's system reminder in the model's context is the harness's, not the person's.
		const reminder = await lookback(["search", "system-reminder", "--agent", "droid"]);
		expect(reminder.json.results[0]).toMatchObject({ sessionId, role: "meta" });
	});

	it("reads an unchanged file no more", async () => {
		const again = await lookback(["search", "ocelot42ridge", "--agent", "droid"]);
		expect(again.json.sync).toMatchObject({ added: 0, rewritten: 0, filesParsed: 0 });
	});

	it.skipIf(!statSync(CLI, { throwIfNoEntry: false }))(
		"serves Droid's sessions to an MCP client, filtered by agent",
		async () => {
			const agentDir = join(lookbackHome, "mcp-agent");
			mkdirSync(agentDir, { recursive: true });
			const server = await startServer(agentDir, { env: { HOME: lookbackHome, FACTORY_HOME_OVERRIDE: home } });
			try {
				const hits = json(await callMcp(server, "search_sessions", { query: "ocelot42ridge", agent: "droid" }));
				expect((hits.results as { sessionId: string; agent: string }[])[0]).toMatchObject({ sessionId, agent: "droid" });
			} finally {
				await server.close();
			}
		},
		60_000,
	);
});
