/** What the team tests share: the real CLI run as a process, machines' session folders, a shard's file put back together. */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { tempDir } from "./helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "./pi-sessions.js";

const Database = createRequire(import.meta.url)("better-sqlite3");
const CLI = join(import.meta.dirname, "..", "dist", "cli.js");

export interface Ran {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** `lookback ARGS` as a process of its own (the remote's worker threads are dist/'s). */
export function lookback(args: string[], env: Record<string, string> = {}): Promise<Ran> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (d) => (stdout += d));
		child.stderr.on("data", (d) => (stderr += d));
		child.on("close", (code) => resolve({ code, stdout, stderr }));
	});
}

/** The same, started: for a test that kills it. */
export function started(args: string[], env: Record<string, string> = {}): { child: ChildProcess; stderr: () => string } {
	const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
	let stderr = "";
	child.stderr?.on("data", (d) => (stderr += d));
	child.stdout?.resume();
	return { child, stderr: () => stderr };
}

/** A machine: a session folder of its own and an index beside it, as the CLI options that name them. */
export interface Machine {
	sessions: string;
	args: string[];
}

export function machine(name: string): Machine {
	const root = tempDir(`machine-${name}`);
	const sessions = join(root, "sessions");
	// A given index's folder must exist: lookback makes none for an --index it is given.
	mkdirSync(join(root, "lookback"));
	return { sessions, args: ["--sessions-dir", sessions, "--only-sessions-dir", "--index", join(root, "lookback", "index.db")] };
}

/** A session on a machine whose question, answer and tool output hold `words`; the output is long (cut in the index), `middle` in its middle. */
export function session(m: Machine, words: string, middle = "", cwd = "/home/dev/team-demo"): string {
	const sm = newSession(m.sessions, cwd);
	sm.appendMessage(userMessage(`How do we handle ${words}?`));
	sm.appendMessage(
		assistantMessage(`Looking at ${words}.`, [{ name: "bash", arguments: { command: `grep -r ${words.split(" ")[0]} src` } }]),
	);
	const filler = Array.from({ length: 400 }, (_, i) => `line ${i} of the build log, nothing to see`).join("\n");
	sm.appendMessage(toolResult("bash", `${filler}\n${middle}\n${filler}\n${words} done`));
	return sm.getSessionId();
}

/** The JSON of a `--json` run that succeeded. */
export function json(ran: Ran): Record<string, unknown> {
	if (ran.code !== 0) throw new Error(`exit ${ran.code}: ${ran.stderr}`);
	return JSON.parse(ran.stdout);
}

/** Every file under a folder, with its bytes. */
export function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
	const out: { path: string; bytes: Buffer }[] = [];
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) out.push(...filesUnder(path));
		else out.push({ path, bytes: readFileSync(path) });
	}
	return out;
}

/** A shard's SQLite file put back together from its manifest and packs in a bucket folder, written to a temp file. */
export function shardFile(bucket: string, name: string): string {
	const dir = join(bucket, "shards", name);
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
	const out = Buffer.alloc(manifest.size);
	for (const [first, count, pack, at] of manifest.extents as number[][]) {
		const bytes = readFileSync(join(dir, manifest.packs[pack]));
		bytes.copy(out, first * manifest.pageBytes, at * manifest.pageBytes, (at + count) * manifest.pageBytes);
	}
	const path = join(tempDir("shard"), "shard.db");
	writeFileSync(path, out);
	return path;
}

/** Every text a shard holds, its deflated bodies and lines inflated: what a reader of the bucket could get. */
export function shardTexts(path: string): string {
	const db = new Database(path, { readonly: true }) as {
		prepare(sql: string): { all(): unknown[]; raw(): { iterate(): Iterable<unknown[]> } };
		close(): void;
	};
	const parts: string[] = [];
	try {
		const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'").all() as {
			name: string;
		}[];
		for (const { name } of tables) {
			for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().iterate()) {
				for (const value of row) {
					if (typeof value === "string") parts.push(value);
					else if (Buffer.isBuffer(value)) {
						parts.push(value.toString("latin1"));
						try {
							parts.push(inflateRawSync(value).toString("utf8"));
						} catch {
							// not deflated
						}
					}
				}
			}
		}
	} finally {
		db.close();
	}
	return parts.join("\n");
}
