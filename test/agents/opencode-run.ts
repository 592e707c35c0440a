/** Runs the real OpenCode binary (installed by scripts/agents/ensure-opencode.mjs) with its XDG dirs in a temp home, against a fake model. */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeOpencodeConfig } from "./fake-opencode-server.mjs";

const TOOLS = join(import.meta.dirname, "..", "..", ".tools", "opencode", "node_modules");

/** The platform package's binary (`opencode-<os>-<arch>[-baseline][-musl]`), whichever ensure-opencode installed. */
export function opencodeBin(): string | undefined {
	if (!existsSync(TOOLS)) return undefined;
	const name = readdirSync(TOOLS).find((n) => n.startsWith(`opencode-${process.platform === "win32" ? "windows" : process.platform}-`));
	const bin = name ? join(TOOLS, name, "bin", "opencode") : undefined;
	return bin && existsSync(bin) ? bin : undefined;
}

/** The XDG dirs of a temp home: OpenCode keeps its database in `data/opencode/`. */
export function opencodeEnv(home: string): Record<string, string> {
	return {
		HOME: home,
		XDG_DATA_HOME: join(home, "data"),
		XDG_CONFIG_HOME: join(home, "config"),
		XDG_CACHE_HOME: join(home, "cache"),
		XDG_STATE_HOME: join(home, "state"),
	};
}

/** Writes opencode.json into the home's config dir, pointing at the fake model. */
export function configureOpencode(home: string, modelUrl: string): void {
	mkdirSync(join(home, "config", "opencode"), { recursive: true });
	writeFileSync(join(home, "config", "opencode", "opencode.json"), fakeOpencodeConfig(modelUrl));
}

export interface OpencodeRun {
	code: number | null;
	/** The session id of `--format json`'s events. */
	sessionId?: string;
	stdout: string;
	stderr: string;
}

/** A running `opencode …`: its exit, and the process (to wait on, or to read its files while it runs). */
export function startOpencode(args: string[], options: { cwd: string; home: string }): Promise<OpencodeRun> {
	const bin = opencodeBin();
	if (!bin) throw new Error("OpenCode is not installed: node scripts/agents/ensure-opencode.mjs");
	const env = {
		PATH: process.env.PATH ?? "",
		...opencodeEnv(options.home),
		// No models.dev fetch, no update check: the fake provider is all it needs.
		OPENCODE_DISABLE_MODELS_FETCH: "1",
		OPENCODE_DISABLE_AUTOUPDATE: "1",
		NO_COLOR: "1",
	};
	return runStoreCli(bin, args, options.cwd, env);
}

/** Runs OpenCode's binary or a fork's (Kilo Code's) with `env` alone, killed after two minutes; the session id of its JSON events. */
export function runStoreCli(bin: string, args: string[], cwd: string, env: Record<string, string>): Promise<OpencodeRun> {
	return new Promise((resolve) => {
		const child = spawn(bin, args, { cwd, env });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, sessionId: /"sessionID":"(ses_[^"]+)"/.exec(out)?.[1], stdout: out, stderr: err });
		});
		child.stdin.end();
	});
}

/** `opencode run --format json -m fake/m <prompt>` in `cwd`. A prompt is one argument of words (OpenCode quotes one with spaces when joining). */
export function runOpencode(prompt: string, options: { cwd: string; home: string; session?: string }): Promise<OpencodeRun> {
	return startOpencode(
		["run", "--format", "json", "-m", "fake/m", ...(options.session ? ["-s", options.session] : []), ...prompt.split(" ")],
		options,
	);
}
