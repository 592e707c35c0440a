/**
 * The viewer over `lookback serve`, in real Chromium, with sessions whose files were deleted: badge, filter, the
 * restore command, and a download whose long message the worker reads whole from the archive's copy by range.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { sessionPathInRoots } from "../../src/node/paths.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium, tokenHeader, withToken } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { PLANTED } from "../secrets.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
let browser: Browser;
let serving: Serving;
let dir: string;
let long: { id: string; path: string; bytes: Buffer };

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "viewer-gone-"));
	const sessions = join(dir, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	const sm = newSession(sessions, "/home/dev/gone-download");
	sm.appendMessage(userMessage("print the deploy log"));
	sm.appendMessage(assistantMessage("", [{ name: "bash", arguments: { command: "cat deploy.log" } }]));
	sm.appendMessage(
		toolResult("bash", `${"a".repeat(4_000)}\n${PLANTED.map((p) => p.text).join("\n")}\nPAPAYA-MIDDLE-58\n${"z".repeat(4_000)}`),
	);
	long = { id: sm.getSessionId(), path: sm.getSessionFile()!, bytes: readFileSync(sm.getSessionFile()!) };
	const indexPath = join(dir, "index.db");
	const opened = await openNodeIndex({ indexPath, sessionsDirs: [sessions], onlySessionsDirs: true, env: {} });
	await opened.index.sync(opened.source);
	const name = readdirSync(sessions, { recursive: true })
		.map(String)
		.find((n) => n.includes(SAMPLE.bash))!;
	rmSync(join(sessions, name));
	rmSync(long.path);
	expect((await opened.index.sync(opened.source)).gone).toBe(2);
	opened.index.close();
	const roots = opened.source.roots();
	serving = await serveViewer({
		indexPath,
		webDir: WEB,
		sessionFile: (path) => {
			try {
				return sessionPathInRoots(path, roots);
			} catch {
				return undefined;
			}
		},
		archived: opened.archive,
	});
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	rmSync(dir, { recursive: true, force: true });
});

async function openPage(query = ""): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
	await page.goto(withToken(serving, query || serving.url));
	await page.waitForSelector("body[data-ready=true]");
	return page;
}

describe("a gone session in the viewer", () => {
	it("is marked gone, picked out or left out by the filter, and offers the restore command to copy", async () => {
		const page = await openPage("?q=SQLITE_BUSY");
		await page.waitForSelector("#list[data-kind=results] .row");
		const row = page.locator("#list .row").first();
		expect(await row.locator(".badge.gone").textContent()).toBe("gone");
		await page.selectOption("select[name=gone]", "exclude");
		await page.waitForFunction(() =>
			document.querySelector("#list .notice")?.textContent?.startsWith("no session matches: gone exclude hid"),
		);
		expect(new URL(page.url()).searchParams.get("gone")).toBe("exclude");
		await page.selectOption("select[name=gone]", "only");
		await page.waitForSelector("#list[data-kind=results] .row .badge.gone");
		await page.locator("#list .row .title").first().click();
		await page.waitForSelector("#reader .gone-note");
		expect(await page.textContent("#reader .gone-note code")).toBe(`lookback restore ${SAMPLE.bash}`);
		expect(await page.textContent("#reader .reader-head > .copy code")).toBe(
			`lookback restore ${SAMPLE.bash} && pi --session ${SAMPLE.bash}`,
		);
		expect(await page.locator("#reader .message").count()).toBeGreaterThan(2);
		const recent = await openPage("?gone=only");
		await recent.waitForSelector("#list[data-kind=recent] .row");
		expect(await recent.locator("#list .row").count()).toBe(2);
		await recent.close();
		await page.close();
	});

	it("downloads a gone session with its long message whole, read by range from the archive's copy, redacted", async () => {
		// The route serves the copy's bytes as the file's own: a range of them, byte for byte.
		const url = new URL(`session-file?path=${encodeURIComponent(long.path)}`, serving.url);
		const part = await fetch(url, { headers: { range: "bytes=100-4099", ...tokenHeader(serving) } });
		expect(part.status).toBe(206);
		expect(part.headers.get("content-range")).toBe(`bytes 100-4099/${long.bytes.length}`);
		expect(Buffer.from(await part.arrayBuffer()).equals(long.bytes.subarray(100, 4100))).toBe(true);
		const page = await browser.newPage({ acceptDownloads: true });
		await page.goto(withToken(serving, `?session=${long.id}`));
		await page.waitForSelector("#reader .message");
		const [file] = await Promise.all([page.waitForEvent("download"), page.click("#reader .export button[data-format=json]")]);
		const saved = join(dir, `download-${file.suggestedFilename()}`);
		await file.saveAs(saved);
		const text = readFileSync(saved, "utf8");
		expect(text).toContain("PAPAYA-MIDDLE-58");
		expect(text).not.toContain('"textCut"');
		for (const p of PLANTED) expect(text, p.kind).not.toContain(p.secret);
		expect(JSON.parse(text).session).toMatchObject({ sessionId: long.id, source: "gone" });
		await page.close();
	});
});
