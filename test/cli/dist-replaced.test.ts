/**
 * `lookback serve` and `lookback mcp` run for days, and an upgrade (`npm i -g lookback@next`, a rebuild) replaces
 * dist/ under them: the hashed chunks of the build they came from are gone (scripts/build.mjs). Each runs here from
 * a copy of the built package; once it is up its chunks are removed, and then every kind of request is asked of
 * it — each must answer, as nothing is left for it to import.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { launchChromium, tokenHeader, withToken } from "../browser.js";
import { SAMPLE, tempDir } from "../helpers.js";
import { agentDir, CLI, call, json, startServer, untilReady } from "../mcp/mcp-client.js";
import { writeSession } from "../mcp/session-file.js";
import { PLANTED } from "../secrets.js";

const ROOT = join(import.meta.dirname, "..", "..");
const ENV = { HOME: "/nonexistent-lookback-home", PATH: process.env.PATH ?? "" };
/** What scripts/build.mjs removes of an earlier build. */
const CHUNK = /^cli-.+-[A-Z0-9]{8}\.js(\.map)?$/;

/** The package as installed: dist/ (without its maps and types) beside wasm/dist. */
function installedCopy(): string {
	const pkg = tempDir("installed");
	cpSync(join(ROOT, "dist"), join(pkg, "dist"), {
		recursive: true,
		filter: (src) => !src.endsWith(".map") && !src.includes(`${sep}dist${sep}types`),
	});
	cpSync(join(ROOT, "wasm", "dist"), join(pkg, "wasm", "dist"), { recursive: true });
	return pkg;
}

/** The chunks the CLI imports lazily, by name without hash (`import("./cli-open-HASH.js")` → "open"). */
function lazyChunks(dist: string): string[] {
	const names = new Set<string>();
	for (const file of readdirSync(dist).filter((f) => /^cli-.*\.js$/.test(f)))
		for (const m of readFileSync(join(dist, file), "utf8").matchAll(/import\("\.\/cli-([a-z-]+?)-[A-Z0-9]{8}\.js"\)/g)) names.add(m[1]);
	return [...names].sort();
}

/** Remove the chunks as an upgrade does; their names. */
function removeChunks(dist: string): string[] {
	const removed = readdirSync(dist).filter((f) => CHUNK.test(f));
	for (const name of removed) rmSync(join(dist, name));
	return removed;
}

/**
 * Its indexer process stops (killed) while the upgrade has dist/indexer.js away, so the host can start none: the
 * next sync or snapshot runs in the host's own process, with the indexer's work it loaded at its start.
 */
async function indexerStopped(pkg: string, host: number): Promise<void> {
	rmSync(join(pkg, "dist", "indexer.js"));
	// The host's child that calls itself so (src/indexer.ts).
	const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
		.split("\n")
		.map((line) => line.trim().split(/\s+/));
	const pids = rows.filter(([, ppid, title]) => Number(ppid) === host && title === "lookback-indexer").map(([pid]) => Number(pid));
	expect(pids).toHaveLength(1);
	process.kill(pids[0], "SIGKILL");
	// Gone once the host has reaped it, which is when the host hears of its exit.
	while (running(pids[0])) await new Promise((resolve) => setTimeout(resolve, 20));
}

function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** `lookback index` of the repo's own build on the same folders (another process indexing meanwhile). */
function indexWithAnother(dir: string): void {
	execFileSync(process.execPath, [CLI, "index", "--agent-dir", dir], { env: ENV, stdio: "ignore" });
}

// Over the index's budget for a message (DEFAULTS.proseMaxChars): an export reads its middle from the file, by range.
const LONG = `${"a".repeat(15_000)}\n${PLANTED[2].text}\nPAPAYA-MIDDLE-58\n${"z".repeat(15_000)}`;

describe("a long-lived command whose dist/ an upgrade replaced", () => {
	it("knows which chunks the CLI imports lazily, and who loads each before it could be gone", () => {
		// A new one needs a place here and in what a long-lived command loads once it is up.
		expect(lazyChunks(join(ROOT, "dist"))).toEqual([
			"host-index", // `lookback serve`'s index, imported as the command starts (other commands spare its indexer process)
			"indexer-work", // HostIndex.preload (serve, mcp): the indexer's work where no indexer process runs
			"main", // the command line, or `lookback mcp`'s own module, at the process's start (cli-main.ts)
			"markdown-it", // an HTML export: `lookback export`, a short command
			"module", // secretlint's rules, which the MCP server loads once it has listed its tools
			"open", // HostIndex.preload: the index opened in the host (mcp)
			"remote-runs", // `lookback mcp --remote`: the tools over a team's shards, loaded with tool-runs (mcp/server.ts)
			"restore", // `lookback restore`, a short command
			"serve", // the viewer's HTTP server, imported as `lookback serve` starts (other commands spare node:http)
			"team", // `lookback publish` and --remote on search, read, browse and usage: short commands
			"team-route", // `lookback serve --remote`'s /team route, imported as the command starts
			"tool-runs", // the MCP tools' runs, loaded once the client has initialized (mcp/server.ts)
		]);
	});

	it("lookback mcp: every tool answers, redacted or not, and finds a session indexed after", async () => {
		const pkg = installedCopy();
		const dir = agentDir();
		const s = await startServer(dir, { cli: join(pkg, "dist", "cli.js"), env: ENV });
		try {
			expect((await s.client.listTools()).tools.map((t) => t.name)).toContain("search_sessions");
			await untilReady(s);
			expect(removeChunks(join(pkg, "dist")).length).toBeGreaterThan(8);
			expect(readdirSync(join(pkg, "dist")).filter((f) => CHUNK.test(f))).toEqual([]);

			for (const redact of [false, true]) {
				const found = json(await call(s, "search_sessions", { query: "RabbitMQ dead-letter", redact }));
				expect((found.results as { sessionId: string }[])[0].sessionId, `redact: ${redact}`).toBe(SAMPLE.branched);
				const inSession = json(await call(s, "search_sessions", { query: "queue", sessionId: SAMPLE.branched, redact }));
				expect(inSession.mode).toBe("in-session");
				expect(json(await call(s, "read_session", { sessionId: SAMPLE.bash, redact })).mode).toBe("read");
				expect(json(await call(s, "read_session", { sessionId: SAMPLE.bash, offset: 0, limit: 2, redact })).mode).toBe("page");
				expect((json(await call(s, "list_sessions", { redact })).sessions as object[]).length).toBeGreaterThan(3);
			}
			expect(json(await call(s, "index_status")).state).toBe("ready");
			const secret = writeSession(join(dir, "sessions"), "after-upgrade", "/home/dev/after", [
				`deploy with ${PLANTED[2].text}`,
				"done: WALNUT-AFTER-UPGRADE",
			]);
			expect(secret).toContain("after-upgrade");
			const redacted = await call(s, "search_sessions", { query: "WALNUT-AFTER-UPGRADE", redact: true });
			expect((json(redacted).results as { sessionId: string }[])[0].sessionId).toBe("after-upgrade");
			const read = await call(s, "read_session", { sessionId: "after-upgrade", redact: true });
			expect(read.text).toContain("[REDACTED:");
			expect(read.text).not.toContain(PLANTED[2].secret);

			await indexerStopped(pkg, s.transport.pid!);
			writeSession(join(dir, "sessions"), "indexed-here", "/home/dev/here", ["where is CHESTNUT-IN-HOST", "here"]);
			const here = json(await call(s, "search_sessions", { query: "CHESTNUT-IN-HOST" }));
			expect((here.results as { sessionId: string }[])[0].sessionId).toBe("indexed-here");
			expect(json(await call(s, "index_status")).indexer).toBe("host process");
			expect(s.stderr()).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find module/);
		} finally {
			await s.close();
		}
	});

	it("lookback serve: its page, the index by ranges and made again, session files live and gone; search, read, usage and export in Chromium", async () => {
		const pkg = installedCopy();
		const dir = agentDir();
		const sessions = join(dir, "sessions");
		const long = writeSession(sessions, "long-download", "/home/dev/long", ["print the deploy log", LONG]);
		// A gone session: indexed (its copy in the archive), then its file removed and the index told.
		indexWithAnother(dir);
		const goneFile = (readdirSync(sessions, { recursive: true }) as string[]).find((n) => n.includes(SAMPLE.bash))!;
		const gonePath = join(sessions, goneFile);
		rmSync(gonePath);
		indexWithAnother(dir);

		const serve = spawn(process.execPath, [join(pkg, "dist", "cli.js"), "serve", "--agent-dir", dir], {
			env: ENV,
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stderr = "";
		serve.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
		const browser = await launchChromium();
		try {
			const printed = await listening(serve);
			const url = printed.url;
			const auth = { headers: tokenHeader(printed) };
			expect(removeChunks(join(pkg, "dist")).length).toBeGreaterThan(8);

			for (const path of ["", "index.html", "app.js", "app.css", "worker.js", "sw.js", "sql-wasm.wasm"])
				expect((await fetch(new URL(path, url))).status, `/${path}`).toBe(200);
			expect((await fetch(new URL("index.db", url))).status).toBe(403);
			const whole = await fetch(new URL("index.db", url), auth);
			expect(whole.status).toBe(200);
			const etag = whole.headers.get("etag");
			const bytes = Buffer.from(await whole.arrayBuffer());
			expect(bytes.subarray(0, 16).toString()).toBe("SQLite format 3\0");
			const part = await fetch(new URL("index.db", url), {
				headers: { range: "bytes=100-4195", "if-range": etag ?? "", ...auth.headers },
			});
			expect(part.status).toBe(206);
			const file = (path: string) => new URL(`session-file?path=${encodeURIComponent(path)}`, url);
			const live = await fetch(file(long), { headers: { range: "bytes=0-99", ...auth.headers } });
			expect(live.status).toBe(206);
			expect(Buffer.from(await live.arrayBuffer()).equals(readFileSync(long).subarray(0, 100))).toBe(true);
			expect((await fetch(file(gonePath), { headers: { range: "bytes=0-99", ...auth.headers } })).status).toBe(206);

			// Another process indexes a new session: the next request of the index has the snapshot made again.
			writeSession(sessions, "made-again", "/home/dev/again", ["where is HAZELNUT-AFTER-UPGRADE", "here"]);
			indexWithAnother(dir);
			const again = await fetch(new URL("index.db", url), { method: "HEAD", ...auth });
			expect(again.status).toBe(200);
			expect(again.headers.get("etag")).not.toBe(etag);

			const page = await browser.newPage({ viewport: { width: 1200, height: 760 }, acceptDownloads: true });
			await page.goto(withToken(printed, "?q=HAZELNUT-AFTER-UPGRADE"));
			await page.waitForSelector("#list[data-kind=results] .row");
			await page.locator("#list .row .title").first().click();
			await page.waitForSelector("#reader .message");
			expect(await page.textContent("#reader")).toContain("HAZELNUT-AFTER-UPGRADE");
			await page.goto(`${url}?view=usage`);
			await page.waitForSelector("body[data-dashboard=ready]");
			await page.goto(`${url}?session=long-download`);
			await page.waitForSelector("#reader .message");
			const [download] = await Promise.all([page.waitForEvent("download"), page.click("#reader .export button[data-format=json]")]);
			const saved = join(dir, "download.json");
			await download.saveAs(saved);
			const text = readFileSync(saved, "utf8");
			// The long message whole, read by range from the server, and redacted.
			expect(text).toContain("PAPAYA-MIDDLE-58");
			expect(text).not.toContain(PLANTED[2].secret);
			await page.goto(`${url}?session=${SAMPLE.bash}`);
			await page.waitForSelector("#reader .gone-note");
			await page.close();

			await indexerStopped(pkg, serve.pid!);
			writeSession(sessions, "made-here", "/home/dev/here", ["where is CHESTNUT-IN-HOST", "here"]);
			indexWithAnother(dir);
			const here = await fetch(new URL("index.db", url), { method: "HEAD", ...auth });
			expect(here.status).toBe(200);
			expect(here.headers.get("etag")).not.toBe(again.headers.get("etag"));
			const later = await browser.newPage({ viewport: { width: 1200, height: 760 } });
			await later.goto(withToken(printed, "?q=CHESTNUT-IN-HOST"));
			await later.waitForSelector("#list[data-kind=results] .row");
			expect(await later.locator("#list .row .title").first().textContent()).toContain("CHESTNUT-IN-HOST");
			await later.close();
			expect(stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find module/);
		} finally {
			await browser.close();
			await stopped(serve);
		}
	});
});

/** The viewer's address, once `lookback serve` says where it is. */
/** Where the server it started listens, and the token in the URL it printed. */
function listening(serve: ChildProcess): Promise<{ url: string; token: string }> {
	return new Promise((resolve, reject) => {
		let out = "";
		serve.stdout?.on("data", (c: Buffer) => {
			out += c.toString();
			const m = /(http:\/\/\S+\/)\?token=([\w-]+)/.exec(out);
			if (m) resolve({ url: m[1], token: m[2] });
		});
		serve.on("exit", (code) => reject(new Error(`lookback serve exited (${code}) before it listened`)));
	});
}

/** Ctrl+C, as a person stops it, and its end. */
function stopped(serve: ChildProcess): Promise<void> {
	if (serve.exitCode !== null || serve.signalCode !== null) return Promise.resolve();
	const exited = new Promise<void>((resolve) => serve.on("exit", () => resolve()));
	serve.kill("SIGINT");
	return exited;
}
