/**
 * `lookback serve` to a second local client: without the token it printed, nothing of a session (the index, a
 * session file) comes out; with it, only what the index holds as sessions — not Codex's `auth.json`, OpenCode's
 * `auth.json` or any other file that lies inside the agents' folders.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../agents.js";
import { FIXTURES, SAMPLE } from "../helpers.js";

const CLI = join(REPO, "dist", "cli.js");
let serve: ChildProcess;
let url: string;
let token: string;
let session: string;
let home: string;

beforeAll(async () => {
	// Not a tempDir, which goes after each test: the server reads it for the whole file.
	home = mkdtempSync(join(tmpdir(), "serve-home-"));
	const agent = join(home, ".pi", "agent");
	mkdirSync(agent, { recursive: true });
	cpSync(FIXTURES, join(agent, "sessions"), { recursive: true });
	session = join(
		agent,
		"sessions",
		(readdirSync(join(agent, "sessions"), { recursive: true }) as string[]).find((n) => n.includes(SAMPLE.bash))!,
	);
	// Credentials that lie inside the folders lookback reads.
	mkdirSync(join(home, ".codex", "sessions"), { recursive: true });
	writeFileSync(join(home, ".codex", "auth.json"), '{"OPENAI_API_KEY":"sk-codex-credential-000"}');
	mkdirSync(join(home, ".local", "share", "opencode"), { recursive: true });
	writeFileSync(join(home, ".local", "share", "opencode", "auth.json"), '{"anthropic":{"type":"api","key":"sk-ant-opencode-000"}}');
	writeFileSync(join(agent, "sessions", "notes.jsonl"), '{"not":"a session"}\n');
	execFileSync(process.execPath, [CLI, "index"], { env: { ...process.env, HOME: home } });
	serve = spawn(process.execPath, [CLI, "serve"], { env: { ...process.env, HOME: home }, stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	[url, token] = await new Promise<[string, string]>((resolve, reject) => {
		serve.stdout?.on("data", (c: Buffer) => {
			out += c.toString();
			const m = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=([\w-]+)/.exec(out);
			if (m) resolve([m[1], m[2]]);
		});
		serve.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
	});
}, 60_000);

afterAll(async () => {
	const exited = new Promise((resolve) => serve.on("exit", resolve));
	serve.kill("SIGINT");
	await exited;
	rmSync(home, { recursive: true, force: true });
});

const sessionFile = (path: string) => new URL(`session-file?path=${encodeURIComponent(path)}`, url);
const bearer = (t = token) => ({ authorization: `Bearer ${t}` });

describe("lookback serve and a second local client", () => {
	it("prints a URL with a long random token", () => {
		expect(token.length).toBeGreaterThanOrEqual(40);
	});

	it("hands out neither the index nor a session without the token (none, wrong, in a cookie or a header)", async () => {
		const cookie = (t: string) => ({ cookie: `lookback-token-${new URL(url).port}=${t}` });
		for (const headers of [{}, bearer("wrong"), bearer(`${token}x`), cookie("wrong"), cookie(""), { cookie: `lookback-token=${token}` }]) {
			for (const target of [new URL("index.db", url), sessionFile(session)]) {
				const r = await fetch(target, { headers: { ...headers, range: "bytes=0-99" } });
				expect(r.status, `${target} ${JSON.stringify(headers)}`).toBe(403);
				expect(await r.text()).not.toContain("SQLite format 3");
			}
		}
		expect((await fetch(new URL("?token=wrong", url), { redirect: "manual" })).status).toBe(403);
		// The page's own files carry no session: they load, and tell the person to open the printed URL.
		expect((await fetch(url)).status).toBe(200);
	});

	it("trades the printed URL's token for a private cookie of this port, and the page's address drops it", async () => {
		const r = await fetch(new URL(`?token=${token}&q=retry`, url), { redirect: "manual" });
		expect(r.status).toBe(303);
		expect(r.headers.get("location")).toBe("/?q=retry");
		const set = r.headers.get("set-cookie") ?? "";
		expect(set).toMatch(new RegExp(`^lookback-token-${new URL(url).port}=${token}; Path=/; HttpOnly; SameSite=Strict`));
		const db = await fetch(new URL("index.db", url), { headers: { cookie: set.split(";")[0], range: "bytes=0-15" } });
		expect(db.status).toBe(206);
		expect(Buffer.from(await db.arrayBuffer()).toString()).toBe("SQLite format 3\0");
	});

	it("with the token, serves a session the index holds and no other file inside the roots", async () => {
		const ok = await fetch(sessionFile(session), { headers: { ...bearer(), range: "bytes=0-9" } });
		expect(ok.status).toBe(206);
		for (const path of [
			join(home, ".codex", "auth.json"),
			join(home, ".local", "share", "opencode", "auth.json"),
			join(home, ".pi", "agent", "sessions", "notes.jsonl"),
			join(home, ".pi", "agent", "sessions", "..", "sessions", "notes.jsonl"),
			`${session}/../../../../.codex/auth.json`,
		]) {
			const r = await fetch(sessionFile(path), { headers: bearer() });
			expect(r.status, path).toBe(404);
			expect(await r.text()).not.toMatch(/sk-(codex|ant)/);
		}
	});
});
