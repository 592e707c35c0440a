/** Runs the real Codex CLI (installed by scripts/agents/ensure-codex.mjs) with its home in a temp dir, against a fake model. */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const CODEX_BIN = join(import.meta.dirname, "..", "..", ".tools", "codex", "node_modules", ".bin", "codex");

export function codexInstalled(): boolean {
	return existsSync(CODEX_BIN);
}

export interface CodexRun {
	code: number | null;
	/** The thread id from `--json`'s `thread.started` event. */
	threadId?: string;
	stdout: string;
	stderr: string;
}

/**
 * `codex exec --json …` in `cwd`, with `home` as CODEX_HOME and HOME (its config.toml points at the fake server);
 * `plain` runs a subcommand as given (`codex mcp add …`).
 */
export function runCodex(args: string[], options: { cwd: string; home: string; plain?: boolean }): Promise<CodexRun> {
	const env = { PATH: process.env.PATH, HOME: options.home, CODEX_HOME: options.home, FAKE_KEY: "fake-key", NO_COLOR: "1" };
	return new Promise((resolve) => {
		const child = spawn(CODEX_BIN, options.plain ? args : ["exec", "--skip-git-repo-check", "--json", ...args], { cwd: options.cwd, env });
		let out = "";
		let err = "";
		child.stdout.on("data", (d) => (out += d));
		child.stderr.on("data", (d) => (err += d));
		const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, threadId: /"thread_id":"([^"]+)"/.exec(out)?.[1], stdout: out, stderr: err });
		});
		child.stdin.end();
	});
}

/**
 * Have Codex compress its cold rollouts to `.jsonl.zst`. 0.171.0 does it only with its `local_thread_store_compression`
 * feature on (under development, off by default): a worker started beside the thread store of any run compresses, in
 * the background, every rollout last written 7 days ago or more. An ephemeral run (which writes no rollout of its
 * own) starts it; nothing waits for the worker, so a run may end before it is done, and runs are repeated, a few at
 * most, until `rollout` is compressed (one did, each time it was tried here). Returns whether it was.
 */
export async function compressCodexRollout(rollout: string, options: { cwd: string; home: string }): Promise<boolean> {
	for (let run = 0; run < 5 && !existsSync(`${rollout}.zst`); run++) {
		const r = await runCodex(["--ephemeral", "--enable", "local_thread_store_compression", "Nothing to do."], options);
		if (r.code !== 0) throw new Error(`codex exec failed: ${r.stderr}`);
	}
	return existsSync(`${rollout}.zst`) && !existsSync(rollout);
}

/**
 * Name a thread as Codex's app clients do (the TUI's /rename, the IDE's rename): `codex app-server`'s
 * `thread/name/set` over JSON-RPC on stdio. Codex writes the name to `$CODEX_HOME/session_index.jsonl`.
 */
export function nameCodexThread(threadId: string, name: string, options: { cwd: string; home: string }): Promise<void> {
	const env = { PATH: process.env.PATH, HOME: options.home, CODEX_HOME: options.home, FAKE_KEY: "fake-key", NO_COLOR: "1" };
	const child = spawn(CODEX_BIN, ["app-server"], { cwd: options.cwd, env });
	let out = "";
	let err = "";
	child.stderr.on("data", (d) => (err += d));
	const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`codex app-server did not answer thread/name/set: ${err}`));
		}, 120_000);
		child.stdout.on("data", (d) => {
			out += d;
			for (const line of out.split("\n").slice(0, -1)) {
				const reply = JSON.parse(line) as { id?: number; error?: { message: string } };
				if (reply.id === 1) {
					send({ method: "initialized" });
					send({ id: 2, method: "thread/name/set", params: { threadId, name } });
				} else if (reply.id === 2) {
					clearTimeout(timer);
					child.kill();
					reply.error ? reject(new Error(reply.error.message)) : resolve();
				}
			}
			out = out.slice(out.lastIndexOf("\n") + 1);
		});
		send({ id: 1, method: "initialize", params: { clientInfo: { name: "lookback-test", version: "0" } } });
	});
}
