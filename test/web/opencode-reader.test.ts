/**
 * The viewer served by `lookback serve` reads an OpenCode session as a conversation, in real Chromium: the
 * database the real CLI wrote (test/fixtures/opencode), its compacted stretch, the task call that spawned a
 * sub-agent linked to the sub-agent's session and back.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { FIXTURE_PROJECT } from "../agents/opencode-fixture.js";
import { FIXTURE_CHILD, FIXTURE_SESSION, fixtureDataDir } from "../agents/opencode-rows.js";
import { launchChromium } from "../browser.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
let browser: Browser;
let serving: Serving;
let dir = "";

beforeAll(async () => {
	// Kept for the whole file (the helpers' temp dirs go after each test).
	dir = mkdtempSync(join(tmpdir(), "opencode-reader-"));
	const agentDir = join(dir, "pi-agent");
	mkdirSync(agentDir, { recursive: true });
	const data = join(dir, "data");
	fixtureDataDir(data);
	const opened = await openNodeIndex({ indexPath: join(dir, "index.db"), agentDir, env: { HOME: dir, XDG_DATA_HOME: data } });
	await opened.index.sync(opened.source);
	opened.index.close();
	serving = await serveViewer({ indexPath: join(dir, "index.db"), webDir: WEB });
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openSession(id: string): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
	await page.goto(new URL(`?session=${id}`, serving.url).href);
	await page.waitForSelector("body[data-ready=true]");
	await page.waitForSelector("#reader .message");
	return page;
}

describe("an OpenCode session in the served viewer", () => {
	it("reads as a conversation: title, agent, prompts, the tool's output, the compacted stretch and the resume command", async () => {
		const page = await openSession(FIXTURE_SESSION);
		expect(await page.textContent("#reader h2")).toBe("Quokka title Look around please.");
		expect(await page.textContent("#reader .facts")).toContain("opencode");
		expect(await page.textContent("#reader .vrow:first-child .message")).toContain("Look around please.");
		expect(await page.getAttribute("#reader .vrow:first-child .message", "class")).toBe("message user");
		expect(await page.textContent("#reader .stretch-start.compacted")).toMatch(/^compacted stretch/);
		expect(await page.locator("#reader .message.tool", { hasText: "ocelot42ridge" }).count()).toBeGreaterThan(0);
		expect(await page.textContent("#reader .reader-head")).toContain(`cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`);
		await page.close();
	});

	it("links the task call to the sub-agent's session, and the sub-agent back to it", async () => {
		const page = await openSession(FIXTURE_SESSION);
		// Under the task call that spawned it (drawn when its message is), and among the session's sub-agents.
		const link = page.locator("#reader .subagent-link").first();
		await link.waitFor();
		expect(await link.textContent()).toBe(`⇢ sub-agent ${FIXTURE_CHILD}`);
		await link.click();
		await page.waitForFunction((id) => new URL(location.href).searchParams.get("session") === id, FIXTURE_CHILD);
		await page.waitForFunction(() => document.querySelector("#reader .messages")?.textContent?.includes("CHILD count the llamas"));
		await page.click("#reader .spawned-by a");
		await page.waitForFunction((id) => new URL(location.href).searchParams.get("session") === id, FIXTURE_SESSION);
		await page.close();
	});
});
