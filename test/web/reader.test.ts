/**
 * The viewer's reader in real Chromium: the branch structure (abandoned branches, switching, forks), find in
 * the session, the branch-state filter of search, and omp sub-agent transcripts linked both ways.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium, withToken } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";
import { ompStore, PARENT } from "../omp/omp-store.js";
import { assistantMessage, newSession, userMessage } from "../pi-sessions.js";
import { watchedPage } from "./watched-page.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
const SUBAGENT = "01a30000-0000-7000-8000-00000000cccc";
const HOSTILE =
	"hostile branch <script>window.__pwned = 'script'</script> <img src=x onerror=\"window.__pwned = 'img'\"> [press](javascript:window.__pwned='link')";
let browser: Browser;
let serving: Serving;
let dir: string;
/** What the core reads of the branched sample's active branch, to know where find must land. */
let activeTexts: { entryId: string; text: string }[];
let hostileId: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "reader-"));
	const agentDir = join(dir, "pi-agent");
	const sessions = join(agentDir, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	// A branch whose first message is hostile: its preview is drawn in the branch list and at the fork.
	const sm = newSession(sessions, "/home/dev/hostile-branches");
	sm.appendMessage(userMessage("a session whose abandoned branch is hostile"));
	const kept = sm.appendMessage(assistantMessage("ok"));
	sm.appendMessage(userMessage(HOSTILE));
	sm.appendMessage(assistantMessage(`echo: ${HOSTILE}`));
	sm.branch(kept);
	sm.appendMessage(userMessage("the kept way instead"));
	sm.appendMessage(assistantMessage("fine"));
	hostileId = sm.getSessionId();
	const store = ompStore(join(dir, "home"));
	const opened = await openNodeIndex({ indexPath: join(dir, "index.db"), agentDir, agentDirs: { omp: store.agent }, env: {} });
	await opened.index.sync(opened.source);
	activeTexts = opened.index.read(SAMPLE.branched).messages.map((m) => ({ entryId: m.entryId, text: m.text.toLowerCase() }));
	opened.index.close();
	serving = await serveViewer({ indexPath: join(dir, "index.db"), webDir: WEB });
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	rmSync(dir, { recursive: true, force: true });
});

async function openPage(url = serving.url): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
	await page.goto(withToken(serving, url));
	await page.waitForSelector("body[data-ready=true]");
	return page;
}

/** Type a query and open the first result. */
async function openHit(page: Page, query: string): Promise<void> {
	await page.fill("#query", query);
	await page.waitForSelector(`#list[data-kind=results][data-query="${query}"] .row`);
	await page.locator("#list .row .title").first().click();
	await page.waitForSelector("#reader .message.focus");
}

const summary = (page: Page) => page.textContent("#reader .branches summary");

describe("the reader", () => {
	it("opens a hit on an abandoned branch on that branch, and switches to the active branch and back", async () => {
		const page = await openPage();
		await openHit(page, "RabbitMQ quorum");
		expect(await summary(page)).toMatch(/^reading an abandoned branch 3 branches in this session, 1 leaving this one/);
		expect(await page.textContent("#reader .message.focus")).toContain("RabbitMQ");
		expect(await page.locator("#reader .stretch-start.abandoned").count()).toBe(1);
		expect(await page.textContent("#reader .branches li")).toMatch(/^active branch 13 messages: Too much ops for us/);

		await page.click("#reader .branches .to-active");
		await page.waitForFunction(() =>
			document.querySelector("#reader .branches summary")?.textContent?.startsWith("reading the active branch"),
		);
		// It opens where the active branch leaves the abandoned one.
		expect(await page.textContent("#reader .message.focus")).toContain("Too much ops for us");
		expect(await summary(page)).toContain("2 leaving this one");
		expect(await page.locator("#reader .message", { hasText: "amqplib" }).count()).toBe(0);
		// The fork markers sit in the conversation under the message each branch leaves after.
		expect(await page.locator("#reader .fork-marker.abandoned").count()).toBeGreaterThanOrEqual(1);

		await page.click("#reader .branches summary");
		await page.locator("#reader .branches li a", { hasText: "RabbitMQ" }).click();
		await page.waitForFunction(() =>
			document.querySelector("#reader .branches summary")?.textContent?.startsWith("reading an abandoned branch"),
		);
		expect(await page.textContent("#reader .message.focus")).toContain("migrate the queue to RabbitMQ");
		expect(await page.textContent("#reader .messages")).toContain("amqplib");
		await page.goBack();
		await page.waitForFunction(() =>
			document.querySelector("#reader .branches summary")?.textContent?.startsWith("reading the active branch"),
		);
		await page.close();
	});

	it("marks where a compacted stretch starts", async () => {
		const page = await openPage(new URL(`?session=${SAMPLE.compaction}`, serving.url).href);
		await page.waitForSelector("#reader .message");
		expect(await page.textContent("#reader .stretch-start.compacted")).toMatch(/^compacted stretch/);
		expect(await page.getAttribute("#reader .vrow:first-child .message", "class")).toBe("message user");
		expect(await page.textContent("#reader .vrow:first-child .message .badge")).toBe("compacted");
		await page.close();
	});

	it("links a fork to its parent session, and the parent to its forks", async () => {
		const page = await openPage();
		await openHit(page, "decorrelated jitter");
		expect(await page.textContent("#reader h2")).toBe("Retry jitter (fork of retry policy)");
		await page.click("#reader .parent a");
		await page.waitForFunction(() => document.querySelector("#reader h2")?.textContent === "Retry policy for payment webhooks");
		expect(new URL(page.url()).searchParams.get("session")).toBe(SAMPLE.linear);
		await page.click("#reader .forked a");
		await page.waitForFunction(() => document.querySelector("#reader h2")?.textContent === "Retry jitter (fork of retry policy)");
		await page.close();
	});

	it("finds text in the session, marks it and steps through the messages that have it, across the virtual list", async () => {
		const word = "dead-letter";
		const expected = activeTexts.filter((m) => m.text.includes(word)).map((m) => m.entryId);
		expect(expected.length).toBeGreaterThanOrEqual(3);
		const page = await openPage(new URL(`?session=${SAMPLE.branched}`, serving.url).href);
		await page.waitForSelector("#reader .message");
		// The last match is not drawn yet: the list draws a screenful.
		expect(await page.locator(`#reader .message[data-entry="${expected[expected.length - 1]}"]`).count()).toBe(0);
		await page.click("#reader .messages");
		await page.keyboard.press("Control+f");
		await page.waitForFunction(() => document.activeElement?.id === "find");
		await page.keyboard.type(word);
		const found = () => page.getAttribute("#reader .message.found", "data-entry");
		await page.waitForFunction((n) => document.querySelector(".find-count")?.textContent === `1 of ${n} messages`, expected.length);
		expect(await found()).toBe(expected[0]);
		// Read as a string: the registry's maplike methods are typed only in the DOM.Iterable lib, which the project leaves out.
		const marks = () => page.evaluate<number[]>(`[CSS.highlights.get("find-current")?.size ?? 0, CSS.highlights.get("find")?.size ?? 0]`);
		expect((await marks())[0]).toBeGreaterThan(0);

		await page.keyboard.press("Enter");
		await page.waitForFunction((n) => document.querySelector(".find-count")?.textContent === `2 of ${n} messages`, expected.length);
		expect(await found()).toBe(expected[1]);
		// Back past the first: the last match, far down the list, is brought into view and marked.
		await page.keyboard.press("Shift+Enter");
		await page.keyboard.press("Shift+Enter");
		await page.waitForFunction((n) => document.querySelector(".find-count")?.textContent === `${n} of ${n} messages`, expected.length);
		expect(await found()).toBe(expected[expected.length - 1]);
		await page.waitForFunction(`(CSS.highlights.get("find-current")?.size ?? 0) > 0`);
		expect(await page.locator("#reader .message.found").isVisible()).toBe(true);

		await page.fill("#find", "no such words anywhere");
		expect(await page.textContent(".find-count")).toBe("no match");
		// Esc closes the find box and leaves the session open.
		await page.keyboard.press("Escape");
		await page.waitForFunction(() => !document.querySelector("#find"));
		expect(await page.locator("#reader .reader").count()).toBe(1);
		expect(await marks()).toEqual([0, 0]);
		await page.close();
	});

	it("filters search by branch state, in the URL, kept across a reload", async () => {
		const page = await openPage();
		await page.fill("#query", "RabbitMQ");
		await page.waitForFunction(() => document.querySelector("#list .row .title")?.textContent === "Order queue: dead-letter handling");
		await page.selectOption("select[name=branch]", "active");
		// The page says why: the branch filter hid the one session that matches.
		await page.waitForFunction(
			() => document.querySelector("#list .notice")?.textContent === "no session matches: branch active hid 1 session that matches",
		);
		expect(new URL(page.url()).searchParams.get("branch")).toBe("active");
		await page.reload();
		await page.waitForSelector("body[data-ready=true]");
		expect(await page.inputValue("select[name=branch]")).toBe("active");
		await page.waitForFunction(() => document.querySelector("#list .notice")?.textContent?.startsWith("no session matches: branch active"));

		await page.fill("#query", "poisonCount");
		await page.waitForSelector('#list[data-query="poisonCount"] .row');
		expect(await page.locator("#list .row .badge").count()).toBe(0);
		await page.selectOption("select[name=branch]", "abandoned");
		await page.waitForFunction(() => document.querySelector("#list .row .badge")?.textContent === "abandoned");
		expect(new URL(page.url()).searchParams.get("branch")).toBe("abandoned");
		await page.close();
	});

	it("reaches an omp sub-agent transcript from the tool call that spawned it, and comes back", async () => {
		const page = await openPage();
		await openHit(page, "bankers rounding");
		expect(new URL(page.url()).searchParams.get("session")).toBe(PARENT);
		const link = page.locator("#reader .message[data-entry='0000000a'] .subagent-link");
		expect(await link.textContent()).toBe("⇢ sub-agent explore-1");
		await link.click();
		await page.waitForFunction((id) => new URL(location.href).searchParams.get("session") === id, SUBAGENT);
		await page.waitForFunction(() => document.querySelector("#reader .messages")?.textContent?.includes("pelican formatter"));
		await page.click("#reader .spawned-by a");
		await page.waitForSelector("#reader .message.focus[data-entry='0000000a']");
		expect(new URL(page.url()).searchParams.get("session")).toBe(PARENT);
		await page.close();
	});

	it("draws the previews of branches as text: nothing in them runs", async () => {
		const { page, foreign } = await watchedPage(browser, serving.url);
		await page.goto(withToken(serving, `?session=${hostileId}`));
		await page.waitForSelector("#reader .branches");
		await page.click("#reader .branches summary");
		expect(await page.textContent("#reader .branches li")).toContain("<script>window.__pwned = 'script'</script>");
		expect(await page.textContent("#reader .fork-marker")).toContain("<img src=x onerror=");
		await page.locator("#reader .branches li a").click();
		await page.waitForFunction(() =>
			document.querySelector("#reader .branches summary")?.textContent?.startsWith("reading an abandoned branch"),
		);
		await page.keyboard.press("Control+f");
		await page.waitForFunction(() => document.activeElement?.id === "find");
		await page.keyboard.type("script");
		await page.waitForFunction(() => document.querySelector(".find-count")?.textContent?.endsWith("messages"));
		expect(
			await page.locator("#reader script, #reader img, #reader iframe, #reader [onerror], #reader a[href^='javascript']").count(),
		).toBe(0);
		expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
		expect(foreign).toEqual([]);
		await page.close();
	});
});
