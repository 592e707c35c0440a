/**
 * The usage dashboard and a reader's usage in real Chromium over `lookback serve`, at 1,400 and 420 px: the figures the
 * index sums, the chart by model or agent, in cost or tokens, by day, week or month, its table adding up to the totals,
 * the chart and the calendar reached by Tab and driven by the keyboard, the links into the list and the reader (its
 * estimates marked per model), and an index read by HTTP ranges. Screenshots for docs/viewer with `npm run screenshots`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compactCount, formatUsd } from "../../src/core/index.js";
import { openNodeIndex } from "../../src/node/open.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium, withToken } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
const AGENTS = join(import.meta.dirname, "..", "fixtures");
const SHOTS = process.env.LOOKBACK_SCREENSHOTS ?? join(tmpdir(), "lookback-viewer-shots");
let browser: Browser;
let serving: Serving;
let dir: string;
let expected: { costUsd: number; tokens: number; sessions: number; toolCalls: number; top: string; blocks: number };

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
	expected = {
		costUsd: total.costUsd,
		tokens: total.tokens,
		sessions: total.sessions,
		toolCalls: total.toolCalls,
		top: top.key,
		blocks: opened.index.usageBlocks({ last: 6 }).blocks.length,
	};
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
	await page.goto(withToken(serving, `?${query}`));
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
		// The tool calls are lookback usage's toolCalls.
		expect(await page.textContent(".totals")).toMatch(new RegExp(`${expected.toolCalls}tool calls, [\\d.]+% failed`));
		expect(await page.textContent(".totals .note")).toMatch(/estimated at list prices \(Pi [\d.]+'s model list\)/);
		expect(await page.locator(".usage-chart canvas").count()).toBeGreaterThan(0);
		expect(await page.locator(".legend li").allTextContents()).toContain("claude-sonnet-4-5");
		expect(await page.locator(".calendar rect.day.l4").count()).toBeGreaterThan(0);
		expect(await page.locator("[aria-label='projects by cost'] .bar-label").first().textContent()).toBe("webshop");
		expect(await page.textContent("#tools")).toMatch(/tool calls · [\d.]+% errors/);
		// The last billing blocks, as lookback usage --by block --last 6 lists them.
		expect(await page.locator(".blocks li").count()).toBe(expected.blocks);
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
			await page.goto(withToken(serving, `?session=${session}`));
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
		/** What has the focus, by its part of the dashboard. */
		const focused = () =>
			page.evaluate(() => {
				const e = document.activeElement;
				if (!e || e === document.body) return "";
				const parts: [string, string][] = [
					[".chart-controls select", "control"],
					[".chart-box", "chart"],
					[".chart-table summary", "table"],
					[".calendar-box", "calendar"],
				];
				return parts.find(([selector]) => e.matches(selector))?.[1] ?? e.tagName.toLowerCase();
			});
		// Tab from the top of the page, through the header and the filters, to the chart's two controls and the chart.
		const walk: string[] = [];
		while (walk.length < 30 && walk[walk.length - 1] !== "chart") {
			await page.keyboard.press("Tab");
			walk.push(await focused());
		}
		expect(walk.slice(-3)).toEqual(["control", "control", "chart"]);
		const before = await page.getAttribute(".chart-box", "aria-valuetext");
		await page.keyboard.press("End");
		const last = await page.getAttribute(".chart-box", "aria-valuetext");
		await page.keyboard.press("ArrowLeft");
		const previous = await page.getAttribute(".chart-box", "aria-valuetext");
		expect(new Set([before, last, previous]).size).toBe(3);
		expect(previous).toMatch(/^2026-1\d-\d\d: \$/);
		// Tab goes on past the table under the chart (closed: one stop) to the calendar, whose value is the last day
		// of use; arrows move it by day and by week.
		await page.keyboard.press("Tab");
		expect(await focused()).toBe("table");
		await page.keyboard.press("Tab");
		expect(await focused()).toBe("calendar");
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

	it("stacks the chart by agent and shows tokens, its table's figures adding up to the totals shown", async () => {
		const page = await dashboard(1400);
		/** The chart's table, opened: each period's figures (unrounded) per series and for all, with their text. */
		const table = async () => {
			if (!(await page.locator(".chart-table").evaluate((d) => (d as HTMLDetailsElement).open))) await page.click(".chart-table summary");
			await page.waitForSelector(".chart-table tbody tr");
			return page
				.locator(".chart-table tbody tr")
				.evaluateAll((trs) =>
					trs.map((tr) =>
						Array.from(tr.querySelectorAll("td")).map((td) => ({ value: Number(td.dataset.value), text: td.textContent ?? "" })),
					),
				);
		};
		const sums = (rows: { value: number }[][]) => {
			let all = 0;
			for (const cells of rows) {
				// A period's series add up to its "all" cell.
				const parts = cells.slice(0, -1).reduce((n, c) => n + c.value, 0);
				expect(parts).toBeCloseTo(cells[cells.length - 1].value, 9);
				all += cells[cells.length - 1].value;
			}
			return all;
		};
		// By model (the default): the periods' costs add up to the total cost shown above the chart.
		const byModel = await table();
		for (const cells of byModel) for (const c of cells) expect(c.text).toBe(formatUsd(c.value));
		expect(sums(byModel)).toBeCloseTo(expected.costUsd, 6);
		expect(`${formatUsd(sums(byModel))}*`).toBe(await page.textContent(".total.cost .figure"));

		// Stacked by agent: a series per agent, the largest cost first, the same periods and sums.
		await page.selectOption(".chart-controls label:has-text('stacked by') select", "agent");
		await page.waitForFunction(() => new URL(location.href).searchParams.get("stack") === "agent");
		// The heading follows the control at once, the chart once the worker has summed it again.
		await page.waitForFunction(() => document.querySelector(".chart-box")?.getAttribute("aria-label") === "cost per day, stacked by agent");
		expect(await page.textContent("#over-time")).toBe("cost per day, by agent");
		expect(await page.locator(".legend li").allTextContents()).toEqual(["pi", "claude", "gemini", "codex"]);
		expect(await page.locator(".chart-table thead th").allTextContents()).toEqual(["day", "pi", "claude", "gemini", "codex", "all"]);
		const byAgent = await table();
		expect(byAgent.length).toBe(byModel.length);
		expect(sums(byAgent)).toBeCloseTo(expected.costUsd, 6);
		// Codex's fake model has no price: its column is all $0, its tokens are counted below.
		expect(byAgent.every((cells) => cells[3].value === 0)).toBe(true);

		// Tokens: the y axis, the read-out and the table count tokens, adding up to the total tokens shown.
		await page.selectOption(".chart-controls label:has-text('show') select", "tokens");
		await page.waitForFunction(() => new URL(location.href).searchParams.get("metric") === "tokens");
		await page.waitForFunction(
			() => document.querySelector(".chart-box")?.getAttribute("aria-label") === "tokens per day, stacked by agent",
		);
		expect(await page.textContent("#over-time")).toBe("tokens per day, by agent");
		const tokens = await table();
		for (const cells of tokens) for (const c of cells) expect(c.text).toBe(compactCount(c.value));
		expect(sums(tokens)).toBe(expected.tokens);
		expect(compactCount(sums(tokens))).toBe(
			await page
				.locator(".totals .total", { has: page.locator(".what", { hasText: /^tokens$/ }) })
				.locator(".figure")
				.textContent(),
		);
		expect(tokens.some((cells) => cells[3].value > 0)).toBe(true);
		await page.focus(".chart-box");
		await page.keyboard.press("End");
		expect(await page.getAttribute(".chart-box", "aria-valuetext")).toMatch(/^2026-12-01: [\d.]+k? · .*codex [\d.]+k?/);
		await page.close();
	});

	it("charts weeks over more than 120 days and months over more than three years, as the filter's span asks", async () => {
		// Pi sessions years apart, each one answer at a recorded cost (whole dollars: the sums are exact).
		const root = join(dir, "years");
		const days: [string, number][] = [
			["2023-01-10", 1],
			["2025-02-05", 2],
			["2026-09-20", 4],
			["2026-10-05", 8],
		];
		mkdirSync(join(root, "--home-dev-projects-years--"), { recursive: true });
		days.forEach(([day, usd], n) => {
			const id = `01a50000-0000-7000-8000-00000000000${n}`;
			const at = (minute: number) => `${day}T12:0${minute}:00.000Z`;
			const lines = [
				{ type: "session", version: 3, id, timestamp: at(0), cwd: "/home/dev/projects/years" },
				{ type: "message", id: "u1", parentId: null, timestamp: at(1), message: { role: "user", content: [{ type: "text", text: "go" }] } },
				{
					type: "message",
					id: "a1",
					parentId: "u1",
					timestamp: at(2),
					message: {
						role: "assistant",
						content: [{ type: "text", text: "done" }],
						provider: "anthropic",
						model: "claude-sonnet-4-5",
						usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: usd } },
					},
				},
			];
			writeFileSync(
				join(root, "--home-dev-projects-years--", `${at(0).replace(/[:.]/g, "-")}_${id}.jsonl`),
				lines.map((l) => JSON.stringify(l)).join("\n"),
			);
		});
		const indexPath = join(dir, "years.db");
		const opened = await openNodeIndex({ indexPath, sessionsDirs: [root], onlySessionsDirs: true, env: {} });
		await opened.index.sync(opened.source);
		opened.index.close();
		const years = await serveViewer({ indexPath, webDir: WEB });
		const page = await browser.newPage({ viewport: { width: 1400, height: 1250 } });
		/** The chart's heading and its table's rows with a figure: period and cost. */
		const chart = async (query: string) => {
			await page.goto(withToken(years, `?view=usage${query}`));
			await page.waitForSelector("body[data-dashboard=ready]");
			await page.click(".chart-table summary");
			await page.waitForSelector(".chart-table tbody tr");
			const rows = await page
				.locator(".chart-table tbody tr")
				.evaluateAll((trs) =>
					trs.map((tr) => [tr.querySelector("th")?.textContent, Number((tr.lastElementChild as HTMLElement).dataset.value)]),
				);
			return { heading: await page.textContent("#over-time"), rows };
		};
		try {
			// 2023 to 2026: months.
			expect(await chart("")).toEqual({
				heading: "cost per month, by model",
				rows: [
					["2023-01", 1],
					["2025-02", 2],
					["2026-09", 4],
					["2026-10", 8],
				],
			});
			await page.focus(".chart-box");
			await page.keyboard.press("End");
			expect(await page.getAttribute(".chart-box", "aria-valuetext")).toBe("2026-10: $8.00 · claude-sonnet-4-5 $8.00");
			// From 2025: weeks, each by its Monday (of a Wednesday, a Sunday and a Monday).
			expect(await chart("&since=2025-01-01")).toEqual({
				heading: "cost per week, by model",
				rows: [
					["2025-02-03", 2],
					["2026-09-14", 4],
					["2026-10-05", 8],
				],
			});
			// A month: days.
			expect((await chart("&since=2026-09-01")).heading).toBe("cost per day, by model");
		} finally {
			await page.close();
			await years.close();
		}
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
		await page.goto(withToken(serving, "?load=paged"));
		await page.waitForSelector("#list[data-kind=recent] .row");
		const row = page.locator("#list .row", { hasText: "Order queue: dead-letter handling" });
		expect(await row.locator(".facts").textContent()).toMatch(/· \$0\.07$/);
		await page.close();
	});
});
