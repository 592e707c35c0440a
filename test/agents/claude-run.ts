/** Runs the real Claude Code binary (installed by scripts/agents/ensure-claude.mjs) with its home in a temp dir, against a fake model. */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const PLATFORM = `claude-code-${process.platform}-${process.arch === "x64" ? "x64" : "arm64"}`;
export const CLAUDE_BIN = join(import.meta.dirname, "..", "..", ".tools", "claude", "node_modules", "@anthropic-ai", PLATFORM, "claude");

export function claudeInstalled(): boolean {
	return existsSync(CLAUDE_BIN);
}

export interface ClaudeRun {
	code: number | null;
	json: { session_id?: string; result?: string; is_error?: boolean } | undefined;
	stderr: string;
}

export interface ClaudeOptions {
	cwd: string;
	home: string;
	/** The fake Anthropic server. */
	modelUrl: string;
	/** More environment for the CLI. */
	env?: Record<string, string>;
	/** Run a subcommand as given (`claude mcp add …`), without the print-mode flags. */
	plain?: boolean;
}

/** `claude -p` in `cwd` with `home` as its HOME and config dir; `modelUrl` is the fake Anthropic server. */
export function runClaude(args: string[], options: ClaudeOptions): Promise<ClaudeRun> {
	const env = {
		PATH: process.env.PATH,
		HOME: options.home,
		CLAUDE_CONFIG_DIR: join(options.home, ".claude"),
		ANTHROPIC_BASE_URL: options.modelUrl,
		ANTHROPIC_API_KEY: "sk-ant-fake",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
		// As root, skipping permission prompts is refused unless the CLI is told it runs in a sandbox.
		IS_SANDBOX: "1",
		...options.env,
	};
	const argv = options.plain ? args : [...args, "--output-format", "json", "--dangerously-skip-permissions"];
	return new Promise((resolve) => {
		const child = spawn(CLAUDE_BIN, argv, { cwd: options.cwd, env });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			let json: ClaudeRun["json"];
			try {
				json = JSON.parse(out);
			} catch {
				json = undefined;
			}
			resolve({ code, json, stderr: err });
		});
		child.stdin.end();
	});
}
