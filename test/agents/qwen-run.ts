/**
 * Runs the real Qwen Code CLI (installed by scripts/agents/ensure-qwen.mjs) on the pinned Node 22, with a home of its
 * own, against a fake OpenAI-compatible model (fake-openai-server.mjs).
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { NODE22, REPO } from "../agents.js";

export const QWEN_CLI = join(REPO, ".tools", "qwen", "node_modules", "@qwen-code", "qwen-code", "cli.js");
export const QWEN_INSTALLED = existsSync(QWEN_CLI) && NODE22 !== undefined;

interface QwenRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

function start(
	args: string[],
	options: { cwd: string; home: string; stdin?: (write: (line: string) => void, out: () => string) => Promise<void> },
) {
	const env = { PATH: process.env.PATH ?? "", HOME: options.home, QWEN_CODE_SUPPRESS_YOLO_WARNING: "1", NO_COLOR: "1" };
	return new Promise<QwenRun>((resolve) => {
		const child = spawn(NODE22 as string, [QWEN_CLI, ...args], { cwd: options.cwd, env });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, stdout: out, stderr: err });
		});
		if (options.stdin)
			void options
				.stdin(
					(line) => child.stdin.write(`${line}\n`),
					() => out,
				)
				.finally(() => child.stdin.end());
		else child.stdin.end();
	});
}

/** `qwen <prompt>` in `cwd` in yolo mode, with the fake model as its OpenAI provider; more flags before the prompt. */
export function runQwen(prompt: string, options: { cwd: string; home: string; modelUrl: string; flags?: string[] }): Promise<QwenRun> {
	const provider = ["--auth-type", "openai", "--openai-base-url", options.modelUrl, "--openai-api-key", "sk-fake", "-m", "fake-model"];
	return start([...provider, "--approval-mode", "yolo", ...(options.flags ?? []), prompt], options);
}

/**
 * Renames a session as an IDE does, through Qwen Code's ACP server (`qwen --acp`, JSON-RPC on stdio): `initialize`,
 * then its `renameSession` method, which appends a `custom_title` record to the session's file.
 */
export function renameQwenSession(
	sessionId: string,
	title: string,
	options: { cwd: string; home: string; modelUrl: string },
): Promise<QwenRun> {
	const provider = ["--auth-type", "openai", "--openai-base-url", options.modelUrl, "--openai-api-key", "sk-fake", "-m", "fake-model"];
	const answered = async (out: () => string, id: number) => {
		for (let i = 0; i < 600 && !out().includes(`"id":${id},`); i++) await new Promise((r) => setTimeout(r, 100));
	};
	return start(["--acp", ...provider], {
		...options,
		async stdin(write, out) {
			write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }));
			await answered(out, 1);
			write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "renameSession", params: { sessionId, title, cwd: options.cwd } }));
			await answered(out, 2);
		},
	});
}
