/**
 * The usage dashboard and a reader's usage in real Chromium over `lookback serve`, at 1,400 and 420 px: the figures the
 * index sums, the chart and the calendar driven by the keyboard, the links into the list and the reader, and an index
 * read by HTTP ranges. Screenshots for docs/viewer with `npm run screenshots`.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../../src/core/index.js";
import { openNodeIndex } from "../../src/node/open.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
const AGENTS = join(import.meta.dirname, "..", "fixtures");
const SHOTS = process.env.LOOKBACK_SCREENSHOTS ?? join(tmpdir(), "lookback-viewer-shots");
let browser: Browser;
let serving: Serving;
let dir: string;
let expected: { costUsd: number; sessions: number; toolCalls: number; top: string };

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "dashboard-"));
	const indexPath = join(dir, "index.db");
	// Pi's samples and the other agents' real files: several models, agents, estimates and a model with no price.
	const env = {
		HOME: join(dir, "home"),
		CLAUDE_CONFIG_DIR: join(AGENTS, "claude"),
		CODEX_HOME: join(AGENTS, "codex"),
		GEMINI_CLI_HOME: join(AGENTS, "gemini", "home"),
	};
	const opened = await openNodeIndex({ indexPath, agentDir: join(dir, "pi"), sessionsDirs: [FIXTURES], env });
	await opened.index.sync(opened.source);
	const total = opened.index.usage().total;
	const top = opened.index.usage({ by: "session", limit: 1 }).rows[0];
	expected = { costUsd: total.costUsd, sessions: total.sessions, toolCalls: total.toolCalls, top: top.key };
	opened.index.close();
	serving = await serveViewer({ indexPath, webDir: WEB });
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	rmSync(dir, { recursive: true, force: true });
});

async function dashboard(width: number, query = "view=usage"): Promise<Page> {
	const page = await browser.newPage({ viewport: { width, height: width > 1000 ? 1250 : 900 } });
	await page.goto(`${serving.url}?${query}`);
	await page.waitForSelector("body[data-dashboard=ready]");
	return page;
}

async function shot(page: Page, name: string): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe("the usage dashboard", () => {
	it("shows the totals the index sums, the chart, the calendar, the top lists and the expensive sessions (1,400 px)", async () => {
		const page = await dashboard(1400);
		expect(await page.textContent(".total.cost .figure")).toBe(`${formatUsd(expected.costUsd)}*`);
		expect(await page.textContent(".totals")).toContain(`${expected.sessions}sessions`);
		expect(await page.textContent(".totals .note")).toMatch(/estimated at list prices \(@earendil-works\/pi-ai [\d.]+\)/);
		expect(await page.locator(".usage-chart canvas").count()).toBeGreaterThan(0);
		expect(await page.locator(".legend li").allTextContents()).toContain("claude-sonnet-4-5");
		expect(await page.locator(".calendar rect.day.l4").count()).toBeGreaterThan(0);
		expect(await page.locator("[aria-label='projects by cost'] .bar-label").first().textContent()).toBe("webshop");
		expect(await page.textContent("#tools")).toMatch(/tool calls · [\d.]+% errors/);
		expect(
			new URL(String(await page.locator(".expensive .title").first().getAttribute("href")), serving.url).searchParams.get("session"),
		).toBe(expected.top);
		await shot(page, "usage");
		// A project picked in its list filters the whole dashboard.
		await page.locator("[aria-label='projects by cost'] button", { hasText: "inventory-api" }).click();
		await page.waitForFunction(() => new URL(location.href).searchParams.get("project") === "inventory-api");
		await page.waitForFunction(() => document.querySelectorAll("[aria-label='projects by cost'] li").length === 1);
		// The most expensive session opens in the reader, with its own usage.
		await page.locator(".expensive .title").first().click();
		await page.waitForSelector("#reader .session-usage");
		await page.click("#reader .session-usage summary");
		expect(await page.textContent("#reader .session-usage summary")).toMatch(/^usage: \$[\d.]+ · [\d.]+k tokens · \d+ tool calls/);
		expect(await page.locator("#reader .session-usage [aria-label='tool calls by tool'] li").count()).toBeGreaterThan(0);
		await shot(page, "reader-usage");
		await page.close();
	});

	it("marks each model's estimated cost in a reader as the totals are marked, and a model with no price as such", async () => {
		const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
		/** The reader's usage of a session: its cost per model as shown, and the note under the table. */
		const usageOf = async (session: string) => {
			await page.goto(`${serving.url}?session=${session}`);
			await page.waitForSelector("#reader .session-usage");
			await page.click("#reader .session-usage summary");
			const rows = await page
				.locator("#reader .usage-models tbody tr")
				.evaluateAll((trs) => trs.map((tr) => [tr.querySelector("th")?.textContent, tr.querySelector("td:last-child")?.textContent]));
			return { rows, note: await page.textContent("#reader .session-usage .facts") };
		};
		// Claude Code records no cost: priced from the registry, each model's cost marked as its total is.
		const claude = await usageOf("803bb4c1-76e6-4594-9fb6-45953cf58af7");
		expect(claude.rows).toEqual([["claude-opus-5-5", expect.stringMatching(/^\$[\d.]+\*$/)]]);
		expect(claude.note).toContain("* estimated at list prices");
		// Pi recorded its costs: nothing marked.
		const pi = await usageOf(SAMPLE.linear);
		expect(pi.rows.length).toBeGreaterThan(0);
		for (const [, cost] of pi.rows) expect(cost).toMatch(/^\$[\d.]+$/);
		expect(pi.note).not.toContain("estimated");
		// Codex's fake model is in no price table: no price, not $0.
		expect((await usageOf("01a2315e-b204-7071-b339-8dc13fe83021")).rows).toEqual([["fake", "no price"]]);
		await page.close();
	});

	it("is reached and driven by the keyboard: the chart's periods and the calendar's days, Enter lists a day", async () => {
		const page = await dashboard(1400, "view=usage&project=webshop");
		await page.focus(".chart-box");
		const before = await page.getAttribute(".chart-box", "aria-valuetext");
		await page.keyboard.press("End");
		const last = await page.getAttribute(".chart-box", "aria-valuetext");
		await page.keyboard.press("ArrowLeft");
		const previous = await page.getAttribute(".chart-box", "aria-valuetext");
		expect(new Set([before, last, previous]).size).toBe(3);
		expect(previous).toMatch(/^2026-1\d-\d\d: \$/);
		// Tab goes on to the calendar; its value is the last day of use, arrows move by day and by week.
		await page.focus(".calendar-box");
		expect(await page.getAttribute(".calendar-box", "aria-valuetext")).toMatch(/^2026-10-21: 1 session, 4 messages, \$0\.03$/);
		await page.keyboard.press("ArrowLeft");
		expect(await page.getAttribute(".calendar-box", "aria-valuetext")).toMatch(/^2026-10-14: nothing$/);
		await page.keyboard.press("ArrowRight");
		await page.keyboard.press("Enter");
		await page.waitForSelector("#list[data-kind=recent] .row");
		const url = new URL(page.url());
		expect([url.searchParams.get("since"), url.searchParams.get("until"), url.searchParams.get("view")]).toEqual([
			"2026-10-21",
			"2026-10-21",
			null,
		]);
		expect(await page.locator("#list .row .title").allTextContents()).toEqual(["Retry jitter (fork of retry policy)"]);
		await page.close();
	});

	it("is readable at 420 px: one column, nothing wider than the window", async () => {
		const page = await dashboard(420);
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
		const boxes = await page.locator(".dashboard > section").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
		for (const w of boxes) expect(w).toBeLessThanOrEqual(420);
		const canvas = await page.locator(".usage-chart canvas").first().boundingBox();
		expect(canvas?.width).toBeGreaterThan(300);
		await shot(page, "usage-narrow");
		await page.close();
	});

	it("sums the same over an index read by HTTP ranges", async () => {
		const page = await dashboard(1400, "view=usage&load=paged");
		expect(await page.evaluate(() => document.body.dataset.mode)).toBe("paged");
		expect(await page.textContent(".total.cost .figure")).toBe(`${formatUsd(expected.costUsd)}*`);
		// The session list names each session's cost beside it.
		await page.goto(`${serving.url}?load=paged`);
		await page.waitForSelector("#list[data-kind=recent] .row");
		const row = page.locator("#list .row", { hasText: "Order queue: dead-letter handling" });
		expect(await row.locator(".facts").textContent()).toMatch(/· \$0\.07$/);
		await page.close();
	});
});
