/** Runs the real Factory Droid binary (installed by scripts/agents/ensure-droid.mjs) in a temp home, with the fake OpenCode model as its custom model. */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OS = process.platform === "win32" ? "win32" : process.platform;
const BIN = join(
	import.meta.dirname,
	"..",
	"..",
	".tools",
	"droid",
	"node_modules",
	"@factory",
	`cli-${OS}-${process.arch}`,
	"bin",
	"droid",
);

export function droidBin(): string | undefined {
	return existsSync(BIN) ? BIN : undefined;
}

/** `~/.factory/settings.json` with the fake server as its one custom model (`custom:Fake-0`). */
export function configureDroid(home: string, modelUrl: string): void {
	mkdirSync(join(home, ".factory"), { recursive: true });
	const model = {
		model: "m",
		displayName: "Fake",
		baseUrl: modelUrl,
		apiKey: "fake-key",
		provider: "generic-chat-completion-api",
		maxOutputTokens: 1000,
	};
	writeFileSync(join(home, ".factory", "settings.json"), JSON.stringify({ customModels: [model] }));
}

export interface DroidRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** `droid exec --auto high -m custom:Fake-0 [-s <id>] <prompt>` in `cwd`. */
export function runDroid(prompt: string, options: { cwd: string; home: string; session?: string }): Promise<DroidRun> {
	const bin = droidBin();
	if (!bin) throw new Error("Factory Droid is not installed: node scripts/agents/ensure-droid.mjs");
	const args = ["exec", "--auto", "high", "-m", "custom:Fake-0", ...(options.session ? ["-s", options.session] : []), prompt];
	return new Promise((resolve) => {
		const child = spawn(bin, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? "", HOME: options.home, NO_COLOR: "1" } });
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
