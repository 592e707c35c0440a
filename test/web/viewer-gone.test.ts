/** The viewer over `lookback serve`, in real Chromium, with a session whose file was deleted: badge, filter, the restore command. */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
let browser: Browser;
let serving: Serving;
let dir: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "viewer-gone-"));
	const sessions = join(dir, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	const indexPath = join(dir, "index.db");
	const opened = await openNodeIndex({ indexPath, sessionsDirs: [sessions], onlySessionsDirs: true, env: {} });
	await opened.index.sync(opened.source);
	const name = readdirSync(sessions, { recursive: true })
		.map(String)
		.find((n) => n.includes(SAMPLE.bash))!;
	rmSync(join(sessions, name));
	expect((await opened.index.sync(opened.source)).gone).toBe(1);
	opened.index.close();
	serving = await serveViewer({ indexPath, webDir: WEB });
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	rmSync(dir, { recursive: true, force: true });
});

async function openPage(query = ""): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
	await page.goto(`${serving.url}${query}`);
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
		await page.waitForFunction(() => document.querySelector("#list .notice")?.textContent === "no session matches");
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
		expect(await recent.locator("#list .row").count()).toBe(1);
		await recent.close();
		await page.close();
	});
});
