/**
 * Runs the real Cline CLI (installed by scripts/agents/ensure-cline.mjs: the platform package's binary, run directly)
 * with a home of its own, its provider the fake OpenAI-compatible model (fake-openai-server.mjs). Every run starts a
 * background hub daemon (`--cline-hub-daemon --cwd <project> …`) that outlives it: `stopClineHub` ends the ones a
 * test's project started, by their pid.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../agents.js";
import { processesNaming } from "../mcp/processes.js";

export const CLINE_BIN = join(REPO, ".tools", "cline", "node_modules", "@cline", `cli-${process.platform}-${process.arch}`, "bin", "cline");
export const CLINE_INSTALLED = existsSync(CLINE_BIN);

interface ClineRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

function cline(args: string[], options: { cwd: string; home: string }): Promise<ClineRun> {
	const env = { PATH: process.env.PATH ?? "", HOME: options.home, NO_COLOR: "1" };
	return new Promise((resolve) => {
		const child = spawn(CLINE_BIN, args, { cwd: options.cwd, env });
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

/** `cline auth`: the fake model as its OpenAI-compatible provider. */
export function configureCline(options: { cwd: string; home: string; modelUrl: string }): Promise<ClineRun> {
	return cline(["auth", "--provider", "openai", "--apikey", "sk-fake", "--modelid", "fake-model", "--baseurl", options.modelUrl], options);
}

/** `cline --json <prompt>` in `cwd`. */
export function runCline(prompt: string, options: { cwd: string; home: string }): Promise<ClineRun> {
	return cline(["--json", prompt], options);
}

/** Ends the hub daemons the runs in `project` started, by their pids, and waits until they are gone. */
export async function stopClineHub(project: string): Promise<void> {
	const marker = `--cwd\0${project}\0`;
	for (const pid of processesNaming(marker))
		try {
			process.kill(pid);
		} catch {
			// gone already
		}
	for (let i = 0; i < 100 && processesNaming(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
}
