/**
 * Runs the real Continue CLI, `cn` (installed by scripts/agents/ensure-continue.mjs), with a home of its own and a
 * config naming the fake OpenAI-compatible model (fake-openai-server.mjs) as its chat model.
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../agents.js";

export const CN = join(REPO, ".tools", "continue", "node_modules", "@continuedev", "cli", "dist", "cn.js");
export const CONTINUE_INSTALLED = existsSync(CN);

interface ContinueRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** Writes `<home>/.continue/config.yaml`, the fake model its one chat model; returns its path. */
export function configureContinue(home: string, modelUrl: string): string {
	const dir = join(home, ".continue");
	mkdirSync(dir, { recursive: true });
	const config = [
		"name: fake",
		"version: 1.0.0",
		"schema: v1",
		"models:",
		"  - name: fake-model",
		"    provider: openai",
		"    model: fake-model",
		`    apiBase: ${modelUrl}`,
		"    apiKey: sk-fake",
		"    roles: [chat]",
		"",
	].join("\n");
	writeFileSync(join(dir, "config.yaml"), config);
	return join(dir, "config.yaml");
}

/** `cn --config <config> --auto [flags] -p <prompt>` in `cwd`. */
export function runContinue(
	prompt: string,
	options: { cwd: string; home: string; config: string; flags?: string[] },
): Promise<ContinueRun> {
	const env = { PATH: process.env.PATH ?? "", HOME: options.home, NO_COLOR: "1" };
	const args = [CN, "--config", options.config, "--auto", ...(options.flags ?? []), "-p", prompt];
	return new Promise((resolve) => {
		const child = spawn(process.execPath, args, { cwd: options.cwd, env });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, stdout: out, stderr: err });
		});
		child.stdin.end();
	});
}
