/**
 * A session the real Claude Code, Codex or Gemini CLI wrote, deleted, kept by lookback's archive, restored with
 * `lookback restore`, and resumed by the same real CLI (`claude -r <id>`, `codex exec resume <id>`, `gemini
 * --resume <id>`): the model is sent the restored history (Gemini's answers are replayed, not asked: there, the
 * resumed chat holds the restored turns before the new one). The Pi and omp sides are test/extension/pi-restore.test.ts.
 */

import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { lookbackJson as lookback } from "../cli-json.js";
import { tempDir } from "../helpers.js";
import { claudeInstalled, runClaude } from "./claude-run.js";
import { codexInstalled, runCodex } from "./codex-run.js";
import { startFakeAnthropic } from "./fake-anthropic-server.mjs";
import { fakeCodexConfig, startFakeCodexModel } from "./fake-codex-server.mjs";
import { GEMINI_INSTALLED, GEMINI_MODEL, geminiHome, runGemini, streamLine } from "./gemini-run.js";

const SECRET = "tango-forty-two";

/** A project folder outside the temp folder (lookback leaves out the sessions of temporary working directories). */
function projectDir(): string {
	const cwd = realpathSync(mkdtempSync(join("/var/tmp", "lookback-proj-")));
	onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
	return cwd;
}

/**
 * Index, delete the session's file, find it gone, restore it, and check it is the same file again: what each
 * agent's test shares. Returns the restored file's path.
 */
async function goneAndRestored(env: Record<string, string>, sessionId: string): Promise<string> {
	await lookback(["index"], env);
	const [hit] = (await lookback(["search", "quokka"], env)).results;
	expect(hit.sessionId).toBe(sessionId);
	const file: string = hit.path;
	const bytes = readFileSync(file);
	rmSync(file);
	const gone = (await lookback(["search", "quokka"], env)).results[0];
	expect(gone.sessionId).toBe(sessionId);
	expect(gone.source).toBe("gone");
	const restored = await lookback(["restore", sessionId], env);
	expect(restored.files.map((f: { outcome: string }) => f.outcome)).toEqual(["written"]);
	expect(readFileSync(file).equals(bytes)).toBe(true);
	return file;
}

describe.skipIf(!claudeInstalled())("a Claude Code session restored and resumed by the real CLI", () => {
	it("is found while gone, written back byte for byte, and `claude -r` resumes it from its history", async () => {
		const fake = await startFakeAnthropic();
		onTestFinished(() => fake.close());
		const home = tempDir("claude-restore");
		mkdirSync(join(home, "pi-agent"), { recursive: true });
		const at = { cwd: projectDir(), home, modelUrl: fake.url };
		const first = await runClaude(["-p", `remember the quokka password: ${SECRET}`], at);
		expect(first.code, first.stderr).toBe(0);
		const sessionId = first.json?.session_id ?? "";
		const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "pi-agent"), CLAUDE_CONFIG_DIR: join(home, ".claude") };
		await goneAndRestored(env, sessionId);

		const asked = fake.requests.length;
		const resumed = await runClaude(["-r", sessionId, "-p", "what was the password?"], at);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.json?.session_id).toBe(sessionId);
		// The model was sent the restored conversation with the new question.
		const sent = JSON.stringify(fake.requests.slice(asked));
		expect(sent).toContain(SECRET);
		expect(sent).toContain("what was the password?");
	}, 240_000);
});

describe.skipIf(!codexInstalled())("a Codex session restored and resumed by the real CLI", () => {
	it("is found while gone, written back byte for byte, and `codex exec resume` resumes it from its history", async () => {
		const fake = await startFakeCodexModel();
		onTestFinished(() => fake.close());
		const root = tempDir("codex-restore");
		const home = join(root, "codex");
		const lookbackHome = join(root, "lookback");
		mkdirSync(home, { recursive: true });
		mkdirSync(join(lookbackHome, "pi-agent"), { recursive: true });
		writeFileSync(join(home, "config.toml"), fakeCodexConfig(fake.url));
		const at = { cwd: projectDir(), home };
		const first = await runCodex([`remember the quokka password: ${SECRET}`], at);
		expect(first.code, first.stderr).toBe(0);
		const threadId = first.threadId ?? "";
		const env = {
			HOME: lookbackHome,
			PI_CODING_AGENT_DIR: join(lookbackHome, "pi-agent"),
			CODEX_HOME: home,
			CLAUDE_CONFIG_DIR: join(lookbackHome, ".claude"),
		};
		await goneAndRestored(env, threadId);

		const asked = fake.requests.length;
		const resumed = await runCodex(["resume", threadId, "what was the password?"], at);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.threadId).toBe(threadId);
		const sent = JSON.stringify(fake.requests.slice(asked));
		expect(sent).toContain(SECRET);
		expect(sent).toContain("what was the password?");
	}, 240_000);
});

describe.skipIf(!GEMINI_INSTALLED)("a Gemini CLI chat restored and resumed by the real CLI", () => {
	it("is found while gone, written back byte for byte, and `gemini --resume` resumes it from its history", async () => {
		const root = tempDir("gemini-restore");
		const home = geminiHome(join(root, "gemini"));
		const lookbackHome = join(root, "lookback");
		mkdirSync(join(lookbackHome, "pi-agent"), { recursive: true });
		const cwd = projectDir();
		const gemini = async (args: string[], answer: string) => {
			const r = await runGemini(home, cwd, ["-m", GEMINI_MODEL, "-o", "json", ...args], [streamLine({ text: answer })]);
			expect(r.code, r.stderr).toBe(0);
			return JSON.parse(r.stdout) as { session_id: string };
		};
		const { session_id: sessionId } = await gemini(["-p", `remember the quokka password: ${SECRET}`], "Noted.");
		const env = { HOME: lookbackHome, GEMINI_CLI_HOME: home.home, PI_CODING_AGENT_DIR: join(lookbackHome, "pi-agent") };
		const file = await goneAndRestored(env, sessionId);

		const resumed = await gemini(["--resume", sessionId, "-p", "what was the password?"], "It was tango-forty-two.");
		expect(resumed.session_id).toBe(sessionId);
		const chat = readFileSync(file, "utf8");
		expect(chat.indexOf(SECRET)).toBeGreaterThanOrEqual(0);
		expect(chat.indexOf(SECRET)).toBeLessThan(chat.indexOf("what was the password?"));
	}, 240_000);
});
