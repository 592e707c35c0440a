/**
 * Runs the real GitHub Copilot CLI (installed by scripts/agents/ensure-copilot.mjs: its platform package's binary)
 * with a home of its own, offline, its model a fake OpenAI-compatible server (fake-openai-server.mjs) as a
 * bring-your-own-key provider.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../agents.js";

export const COPILOT_BIN = join(
	REPO,
	".tools",
	"copilot",
	"node_modules",
	"@github",
	`copilot-${process.platform}-${process.arch}`,
	"copilot",
);
export const COPILOT_INSTALLED = existsSync(COPILOT_BIN);

interface CopilotRun {
	code: number | null;
	stdout: string;
	stderr: string;
	/** The id its closing summary names (`Resume copilot --resume=<id>`). */
	sessionId?: string;
}

/** `copilot -p <prompt>` in `cwd`, every tool allowed, no telemetry; more flags before the prompt. */
export function runCopilot(
	prompt: string,
	options: { cwd: string; home: string; modelUrl: string; flags?: string[] },
): Promise<CopilotRun> {
	const env = {
		PATH: process.env.PATH ?? "",
		HOME: options.home,
		COPILOT_OFFLINE: "true",
		COPILOT_PROVIDER_BASE_URL: options.modelUrl,
		COPILOT_PROVIDER_TYPE: "openai",
		COPILOT_PROVIDER_API_KEY: "sk-fake",
		COPILOT_MODEL: "fake-model",
		COPILOT_AUTO_UPDATE: "false",
		NO_COLOR: "1",
	};
	const args = ["--allow-all-tools", "--disable-client-telemetry", ...(options.flags ?? []), "-p", prompt];
	return new Promise((resolve) => {
		const child = spawn(COPILOT_BIN, args, { cwd: options.cwd, env });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			const all = `${out}\n${err}`;
			resolve({ code, stdout: out, stderr: err, sessionId: /--resume=([0-9a-f-]{36})/.exec(all)?.[1] });
		});
		child.stdin.end();
	});
}
