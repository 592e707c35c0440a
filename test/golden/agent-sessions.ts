/**
 * Sessions the agents' real CLIs record, for the golden set of questions as agents type them: Codex, Claude Code,
 * Gemini CLI and OpenCode each driven against their fake model (test/agents/*-run.ts) in projects of their own,
 * and Pi's by its own SessionManager. Codex's sessions carry the boilerplate Codex injects into every rollout (its
 * permission and skill instructions, the project's AGENTS.md), with words the other sessions' own text has.
 * Everything lives under one root, with the environment that points lookback at each agent's folders.
 */

import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { claudeInstalled, runClaude } from "../agents/claude-run.js";
import { codexInstalled, runCodex } from "../agents/codex-run.js";
import { startFakeAnthropic } from "../agents/fake-anthropic-server.mjs";
import { fakeCodexConfig, startFakeCodexModel } from "../agents/fake-codex-server.mjs";
import { startFakeOpencodeModel } from "../agents/fake-opencode-server.mjs";
import { GEMINI_INSTALLED, GEMINI_MODEL, geminiHome, runGemini, streamLine } from "../agents/gemini-run.js";
import { configureOpencode, opencodeBin, runOpencode } from "../agents/opencode-run.js";
import { assistantMessage, newSession, userMessage } from "../pi-sessions.js";

/** Whether every CLI the set is made with is installed (scripts/agents/ensure-*.mjs). */
export function agentClisInstalled(): boolean {
	return codexInstalled() && claudeInstalled() && GEMINI_INSTALLED && opencodeBin() !== undefined;
}

/** The project's AGENTS.md, which Codex injects into each of its sessions: common words the questions use too. */
const AGENTS_MD = `# Repository guidelines

Keep the test suite green before every commit, and write commit messages in plain text. Reports and exports go out as plain text, never as HTML. A failed deploy is never retried by hand: the pipeline has its own retry with exponential backoff and a timeout per step. Ask before you touch the session store or the upstream proxy settings.`;

export type AgentSessionName =
	| "codexRedis"
	| "codexWc"
	| "codexTail"
	| "claudeExport"
	| "claudeParse"
	| "claudeLock"
	| "geminiChinese"
	| "geminiOom"
	| "opencodeWebpack"
	| "opencodePlaywright"
	| "opencodeLogo"
	| "claudeSandbox"
	| "piJitter"
	| "piJapanese";

/** The answers Claude Code's fake model gives, by a word of the prompt. */
const CLAUDE_ANSWERS: [RegExp, string][] = [
	[/plain text format/, "Added src/export/plain.ts: the text renderer strips the markdown and wraps at 80 columns."],
	[/parseDuration/, "The UNITS table has no entry for s, so parseDuration falls through to Number('90s'), which is NaN."],
	[/database is locked/, "Set PRAGMA busy_timeout = 5000 in src/db/open.ts so a writer waits for the other test worker."],
	[/web fonts/, "Allowed fonts.googleapis.com in the sandbox's network allowlist of the docs build."],
];

/** Record every session; returns their ids by name and the environment lookback reads them with. */
export async function recordAgentSessions(root: string): Promise<{ ids: Record<AgentSessionName, string>; env: Record<string, string> }> {
	const ids = {} as Record<AgentSessionName, string>;
	const project = (name: string) => {
		const dir = join(root, "projects", name);
		mkdirSync(dir, { recursive: true });
		return realpathSync(dir);
	};

	// Codex: three sessions in a project with an AGENTS.md.
	const codexHome = join(root, "codex");
	mkdirSync(codexHome, { recursive: true });
	const codexModel = await startFakeCodexModel();
	try {
		writeFileSync(join(codexHome, "config.toml"), fakeCodexConfig(codexModel.url));
		const worker = project("payments-worker");
		writeFileSync(join(worker, "AGENTS.md"), AGENTS_MD);
		writeFileSync(join(worker, "notes.md"), "Release 4.2 ships the new checkout flow and the faster payment worker.\n");
		const codex = async (name: AgentSessionName, prompt: string) => {
			const r = await runCodex([prompt], { cwd: worker, home: codexHome });
			expect(r.code, r.stderr).toBe(0);
			ids[name] = r.threadId ?? "";
		};
		await codex(
			"codexRedis",
			"The payment worker drops jobs whenever redis restarts. Wrap the redis client in a retry with exponential backoff. SHELL echo 'ECONNRESET redis:6379 after 3 attempts'",
		);
		await codex("codexWc", "How long is the release announcement? SHELL wc -w notes.md");
		await codex(
			"codexTail",
			"I ran tail -F on the nginx error log during the reload and saw upstream timed out (110: Connection timed out). SHELL echo 'upstream timed out while reading response header from upstream'",
		);
	} finally {
		await codexModel.close();
	}

	// Claude Code: a prompt answered in prose, then a shell call where the session needs one.
	const claudeHome = join(root, "claude-home");
	mkdirSync(claudeHome, { recursive: true });
	const anthropic = await startFakeAnthropic({ reply: (text) => CLAUDE_ANSWERS.find(([re]) => re.test(text))?.[1] });
	try {
		const docs = project("docs-site");
		const at = { cwd: docs, home: claudeHome, modelUrl: anthropic.url };
		const claude = async (name: AgentSessionName, prompt: string, command?: string) => {
			const first = await runClaude(["-p", prompt], at);
			expect(first.code, first.stderr).toBe(0);
			ids[name] = first.json?.session_id ?? "";
			if (command) {
				const call = await runClaude(["-r", ids[name], "-p", `CALL Bash ${JSON.stringify({ command, description: "check" })}`], at);
				expect(call.code, call.stderr).toBe(0);
			}
		};
		await claude(
			"claudeExport",
			"Add a plain text format to the export command: lookback export --format text should print the conversation without markdown.",
		);
		await claude(
			"claudeParse",
			'Why does parseDuration("90s") in src/time/parse.ts return NaN?',
			"echo 'src/time/parse.ts:14 const UNITS = { ms: 1, m: 60000, h: 3600000 }'",
		);
		await claude(
			"claudeLock",
			"The CI job fails with SQLITE_BUSY: database is locked when two test workers write at once.",
			"echo 'Error: SQLITE_BUSY: database is locked at Statement.run (src/db/open.ts:31)'",
		);
		// Words of Codex's permission instructions, which every Codex session carries.
		await claude("claudeSandbox", "The docs build needs network access inside the sandbox to fetch the web fonts.");
	} finally {
		await anthropic.close();
	}

	// Gemini CLI: its model's answers replayed from a file.
	const gemini = geminiHome(join(root, "gemini-home"));
	const ops = project("ops");
	const geminiRun = async (name: AgentSessionName, prompt: string, lines: string[]) => {
		const r = await runGemini(gemini, ops, ["-m", GEMINI_MODEL, "--approval-mode=yolo", "-o", "json", "-p", prompt], lines);
		expect(r.code, r.stderr).toBe(0);
		ids[name] = JSON.parse(r.stdout).session_id;
	};
	await geminiRun("geminiChinese", "生产环境数据库连接池耗尽，所有接口都超时了，帮我排查", [
		streamLine({ text: "连接池上限是 10，慢查询占满了连接；把上限调到 50，并给每个查询加上超时。" }),
	]);
	await geminiRun("geminiOom", "Our worker pod keeps getting OOMKilled on kubernetes since the upgrade", [
		streamLine({
			text: "Checking the pod.",
			calls: [
				{
					name: "run_shell_command",
					args: { command: "echo 'Last State: Terminated, Reason: OOMKilled, memory limit 512Mi'", description: "describe" },
				},
			],
		}),
		streamLine({ text: "The memory limit of 512Mi is below what the new image needs; raise it to 1Gi." }),
	]);

	// OpenCode: a shell call each.
	const opencodeHome = join(root, "opencode-home");
	mkdirSync(opencodeHome, { recursive: true });
	const opencodeModel = await startFakeOpencodeModel();
	try {
		configureOpencode(opencodeHome, opencodeModel.url);
		const frontend = project("frontend");
		const opencode = async (name: AgentSessionName, prompt: string) => {
			const r = await runOpencode(prompt, { cwd: frontend, home: opencodeHome });
			expect(r.code, r.stderr).toBe(0);
			ids[name] = r.sessionId ?? "";
		};
		await opencode(
			"opencodeWebpack",
			"The webpack build takes four minutes since we turned on source maps. SHELL echo 'devtool: eval-source-map, build finished in 241s'",
		);
		await opencode(
			"opencodePlaywright",
			"The playwright e2e checkout test is flaky: it times out waiting for the payment iframe. SHELL echo 'TimeoutError: waiting for frame payment-iframe exceeded 30000ms'",
		);
		// Words of Codex's image skill, which every Codex session carries.
		await opencode(
			"opencodeLogo",
			"Make the logo image transparent and resize the icon for the docs header. SHELL echo 'logo.png 512x512 converted to a transparent background'",
		);
	} finally {
		await opencodeModel.close();
	}

	// Pi: its own SessionManager.
	const agentDir = join(root, "pi-agent");
	const pi = (name: AgentSessionName, cwd: string, prompt: string, answer: string) => {
		const sm = newSession(join(agentDir, "sessions"), cwd);
		sm.appendMessage(userMessage(prompt));
		sm.appendMessage(assistantMessage(answer));
		ids[name] = sm.getSessionId();
	};
	pi(
		"piJitter",
		"/home/dev/infra",
		"Add decorrelated jitter to the reconnect backoff so that all clients do not reconnect at once after an outage",
		"delayFor() now picks a random delay between the base delay and three times the previous one.",
	);
	pi(
		"piJapanese",
		"/home/dev/inventory",
		"本番でデッドロックが発生しています。在庫テーブルの更新順序を調べてください",
		"更新順序を sku 順に揃えました。",
	);

	for (const [name, id] of Object.entries(ids)) expect(id, name).toMatch(/\S/);
	const env = {
		HOME: join(root, "home"),
		PI_CODING_AGENT_DIR: agentDir,
		CODEX_HOME: codexHome,
		CLAUDE_CONFIG_DIR: join(claudeHome, ".claude"),
		GEMINI_CLI_HOME: gemini.home,
		XDG_DATA_HOME: join(opencodeHome, "data"),
	};
	return { ids, env };
}
