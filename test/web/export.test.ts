/**
 * Export in real Chromium: the viewer's download (made by its worker from `lookback serve`'s index and the
 * session files it serves by range, or with no server from the files picked in the tab) carries no planted
 * secret and holds long messages whole; and the HTML export of a hostile session, opened as a page, runs
 * nothing and loads nothing.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportSession } from "../../src/core/index.js";
import { readFileRange } from "../../src/node/file-range.js";
import { openNodeIndex } from "../../src/node/open.js";
import { sessionPathInRoots } from "../../src/node/paths.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium, serve, tokenHeader, withToken } from "../browser.js";
import { assistantMessage, encodedCwd, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { PLANTED } from "../secrets.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
const MIDDLE = "the unstored middle holds KIWI-MIDDLE-77";

/** Everything a transcript could hold that would run or load in a page that let it through. */
const HOSTILE = [
	"<script>window.__pwned = 'script'</script>",
	"<img src=https://remote.example/pixel.png onerror=\"window.__pwned = 'img'\">",
	"[press](javascript:window.__pwned='link') [data](data:text/html,<script>window.__pwned='data'</script>)",
	"![remote image](https://remote.example/tracker.png)",
	'<iframe src="https://remote.example/frame"></iframe><link rel=stylesheet href=https://remote.example/s.css>',
	"<style>@import url(https://remote.example/i.css); body { background: url(https://remote.example/bg.png) }</style>",
	'<svg onload="window.__pwned=\'svg\'"><a xlink:href="javascript:alert(1)">x</a></svg> <a href="javascript:alert(2)">raw</a>',
	"<https://remote.example/autolink> and a plain link https://remote.example/plain",
].join("\n\n");

let browser: Browser;
let serving: Serving;
let dir: string;
let ids: { hostile: string; secrets: string; long: string };
let hostileHtml: string;

beforeAll(async () => {
	dir = join(tmpdir(), `export-web-${process.pid}`);
	mkdirSync(dir, { recursive: true });
	const agentDir = join(dir, "pi-agent");
	const sessions = join(agentDir, "sessions");
	const hostile = newSession(sessions, "/home/dev/hostile-export");
	hostile.appendMessage(userMessage(`hostile session\n\n${HOSTILE}`));
	hostile.appendMessage(
		assistantMessage(`echo:\n\n${HOSTILE}`, [{ name: "bash", arguments: { command: "<script>window.__pwned='call'</script>" } }]),
	);
	hostile.appendMessage(toolResult("bash", `<html><body onload="window.__pwned='result'">${HOSTILE}</body></html>`));
	const secrets = newSession(sessions, "/home/dev/secrets-export");
	secrets.appendMessage(userMessage(`keys for the deploy:\n${PLANTED.map((p) => p.text).join("\n")}`));
	secrets.appendMessage(assistantMessage("noted", [{ name: "bash", arguments: { command: PLANTED[1].text } }]));
	secrets.appendMessage(toolResult("bash", `${"x".repeat(3_000)}\n${PLANTED.map((p) => p.text).join("\n")}\n${"y".repeat(3_000)}`));
	const long = newSession(sessions, "/home/dev/long-export");
	long.appendMessage(userMessage("print the build log"));
	long.appendMessage(assistantMessage("", [{ name: "bash", arguments: { command: "cat build.log" } }]));
	long.appendMessage(toolResult("bash", `${"a".repeat(4_000)}\n${MIDDLE}\n${"z".repeat(4_000)}`));
	ids = { hostile: hostile.getSessionId(), secrets: secrets.getSessionId(), long: long.getSessionId() };
	const opened = await openNodeIndex({ indexPath: join(dir, "index.db"), agentDir, env: { HOME: join(dir, "home") } });
	await opened.index.sync(opened.source);
	hostileHtml = (await exportSession(opened.index, ids.hostile, { format: "html", branch: "all", readRange: readFileRange })).content;
	const roots = opened.source.roots();
	opened.index.close();
	serving = await serveViewer({
		indexPath: join(dir, "index.db"),
		webDir: WEB,
		sessionFile: (path) => {
			try {
				return sessionPathInRoots(path, roots);
			} catch {
				return undefined;
			}
		},
	});
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	rmSync(dir, { recursive: true, force: true });
});

/** Open a session in the viewer and download it in a format; the downloaded file's text. */
async function download(
	session: string,
	format: "md" | "html" | "json",
	allBranches = false,
): Promise<{ text: string; name: string; page: Page }> {
	const page = await browser.newPage({ acceptDownloads: true });
	await page.goto(withToken(serving, `?session=${session}`));
	await page.waitForSelector("#reader .message");
	if (allBranches) await page.check("#reader .export input[type=checkbox]");
	const [file] = await Promise.all([page.waitForEvent("download"), page.click(`#reader .export button[data-format=${format}]`)]);
	const path = join(dir, `download-${Date.now()}-${file.suggestedFilename()}`);
	await file.saveAs(path);
	await page.waitForSelector("#reader .export-state");
	return { text: readFileSync(path, "utf8"), name: file.suggestedFilename(), page };
}

describe("the viewer's download", () => {
	for (const format of ["md", "html", "json"] as const)
		it(`downloads a session as ${format}, none of its planted secrets in it`, async () => {
			const { text, name, page } = await download(ids.secrets, format);
			expect(name).toMatch(new RegExp(`^keys-for-the-deploy.*-${ids.secrets.slice(0, 8)}\\.${format}$`));
			for (const p of PLANTED) expect(text, p.kind).not.toContain(p.secret);
			expect(text).toContain("[REDACTED:");
			expect(await page.textContent("#reader .export-state")).toMatch(/secrets redacted$/);
			await page.close();
		});

	it("shows the person their own text as it is: the reader holds the secrets its download leaves out", async () => {
		const page = await browser.newPage();
		await page.goto(withToken(serving, `?session=${ids.secrets}`));
		await page.waitForSelector("#reader .message");
		const shown = (await page.textContent("#reader")) ?? "";
		for (const p of PLANTED.filter((p) => !p.text.includes("\n"))) expect(shown, p.kind).toContain(p.secret);
		expect(shown).not.toContain("[REDACTED:");
		await page.close();
	});

	it("holds a long message whole: the worker reads it from the session file lookback serve hands out by range", async () => {
		const { text, page } = await download(ids.long, "json");
		expect(text).toContain(MIDDLE);
		expect(text).not.toContain('"textCut"');
		await page.close();
	});

	it("refuses any file but a session inside the agents' folders", async () => {
		for (const path of ["/etc/passwd", join(dir, "index.db"), join(dir, "pi-agent", "sessions", "..", "..", "index.db")]) {
			const res = await fetch(new URL(`session-file?path=${encodeURIComponent(path)}`, serving.url), {
				headers: { range: "bytes=0-10", ...tokenHeader(serving) },
			});
			expect(res.status, path).toBe(404);
		}
	});
});

describe("the download with no server", () => {
	it("holds a long message whole, read from the file picked in the tab", async () => {
		const host = await serve({ "/": WEB });
		const context = await browser.newContext({ acceptDownloads: true });
		const page = await context.newPage();
		try {
			await page.goto(`${host.url}/`);
			await page.waitForSelector("body[data-ready=true][data-mode=local]");
			await page.setInputFiles("#pick-folder", join(dir, "pi-agent", "sessions", encodedCwd("/home/dev/long-export")));
			await page.waitForSelector('#local[data-handled="1"]');
			await page.fill("#query", "print the build log");
			await page.waitForSelector("#list[data-kind=results] .row");
			await page.locator("#list .row .title").first().click();
			await page.waitForSelector("#reader .message");
			const [file] = await Promise.all([page.waitForEvent("download"), page.click("#reader .export button[data-format=json]")]);
			const path = join(dir, `picked-${file.suggestedFilename()}`);
			await file.saveAs(path);
			const text = readFileSync(path, "utf8");
			expect(text).toContain(MIDDLE);
			expect(text).not.toContain('"textCut"');
		} finally {
			await context.close();
			host.server.close();
		}
	});
});

describe("the HTML export of a hostile session", () => {
	it("runs nothing and loads nothing in a real browser, and is still a readable page", async () => {
		const host = await serve({}, { "/export.html": hostileHtml });
		const page = await browser.newPage();
		const requests: string[] = [];
		const violations: string[] = [];
		page.on("request", (r) => requests.push(r.url()));
		page.on("console", (m) => violations.push(m.text()));
		try {
			await page.goto(`${host.url}/export.html`);
			await page.waitForLoadState("networkidle");
			// Open every collapsed block: what is inside is drawn too.
			await page.evaluate(() => {
				for (const d of Array.from(document.querySelectorAll("details"))) d.open = true;
			});
			await page.waitForTimeout(300);
			expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
			expect(requests).toEqual([`${host.url}/export.html`]);
			expect(violations.filter((v) => /Content Security Policy|Refused/i.test(v))).toEqual([]);
			expect(
				await page.evaluate(
					() =>
						document.querySelectorAll("script, iframe, object, embed, img, svg, link[rel=stylesheet], body style, [onload], [onerror]")
							.length,
				),
			).toBe(0);
			expect(
				await page.evaluate(() =>
					Array.from(document.querySelectorAll("a[href]"))
						.map((a) => a.getAttribute("href"))
						.filter((h) => !/^(https?:|#)/.test(h ?? "")),
				),
			).toEqual([]);
			// The hostile text is there, as text.
			const text = await page.textContent("main");
			expect(text).toContain("<script>window.__pwned = 'script'</script>");
			expect(text).toContain("[image: remote image]");
			// The page's own style applies: its hash in the policy matches it.
			expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).toBe("960px");
			expect(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content")).toMatch(
				/^default-src 'none'; style-src 'sha256-/,
			);
		} finally {
			await page.close();
			host.server.close();
		}
	});
});
