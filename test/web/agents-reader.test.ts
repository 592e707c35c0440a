/**
 * The viewer served by `lookback serve` reads every other agent's sessions as conversations, in real Chromium, over
 * what the real CLIs wrote: Claude Code (test/fixtures/claude), Codex (test/fixtures/codex), Gemini CLI
 * (test/fixtures/gemini) and OpenCode (test/fixtures/opencode) in one index. A search finds each agent's session,
 * the hit names its agent, the agent filter narrows to one, and the reader shows the conversation with its resume
 * command and the sub-agent a tool call spawned, linked both ways.
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
import { launchChromium, withToken } from "../browser.js";
import { AGENT_SESSIONS as AGENTS } from "./agent-sessions.js";
import { drawn, followSubagentAndBack } from "./reader-steps.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
const FIXTURES = join(import.meta.dirname, "..", "fixtures");
let browser: Browser;
let serving: Serving;
let dir = "";

beforeAll(async () => {
	// Kept for the whole file (the helpers' temp dirs go after each test).
	dir = mkdtempSync(join(tmpdir(), "agents-reader-"));
	const agentDir = join(dir, "pi-agent");
	mkdirSync(agentDir, { recursive: true });
	const data = join(dir, "data");
	fixtureDataDir(data);
	const env = {
		HOME: dir,
		XDG_DATA_HOME: data,
		CLAUDE_CONFIG_DIR: join(FIXTURES, "claude"),
		CODEX_HOME: join(FIXTURES, "codex"),
		GEMINI_CLI_HOME: join(FIXTURES, "gemini", "home"),
	};
	const opened = await openNodeIndex({ indexPath: join(dir, "index.db"), agentDir, env });
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

async function openPage(query: string): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
	await page.goto(withToken(serving, query));
	await page.waitForSelector("body[data-ready=true]");
	return page;
}

async function openSession(id: string): Promise<Page> {
	const page = await openPage(`?session=${id}`);
	await page.waitForSelector("#reader .message");
	return page;
}

const QUERY = AGENTS.map((a) => a.word).join(" OR ");

/** The rows of the result list for `query` once it is shown: each row's title link's session and its facts. */
async function rows(page: Page, query: string): Promise<{ session: string | null; facts: string }[]> {
	await page.waitForSelector(`#list[data-kind=results][data-query="${query}"] .row`);
	return page.evaluate(() =>
		Array.from(document.querySelectorAll("#list .row"), (row) => ({
			session: new URL((row.querySelector(".title") as HTMLAnchorElement).href).searchParams.get("session"),
			facts: row.querySelector(".facts")?.textContent ?? "",
		})),
	);
}

describe("Claude Code, Codex and Gemini CLI sessions in the served viewer", () => {
	it("are found by one search, each hit naming its agent, and the agent filter narrows to one agent", async () => {
		const page = await openPage(`?q=${encodeURIComponent(QUERY)}`);
		const all = await rows(page, QUERY);
		for (const a of AGENTS) {
			const row = all.find((r) => r.session === a.session);
			expect(row, a.agent).toBeDefined();
			expect(row?.facts.split(" · "), a.agent).toContain(a.agent);
		}
		for (const a of AGENTS) {
			await page.selectOption("select[name=agent]", a.agent);
			await page.waitForFunction((agent) => new URL(location.href).searchParams.get("agent") === agent, a.agent);
			await page.waitForFunction((agent) => {
				const facts = Array.from(document.querySelectorAll("#list[data-kind=results] .row .facts"), (f) => f.textContent ?? "");
				return facts.length > 0 && facts.every((f) => f.split(" · ").includes(agent));
			}, a.agent);
			const narrowed = await rows(page, QUERY);
			expect(narrowed.map((r) => r.session)).toContain(a.session);
			for (const other of AGENTS.filter((o) => o !== a)) expect(narrowed.map((r) => r.session)).not.toContain(other.session);
		}
		await page.close();
	});

	it.each(AGENTS)("reads a $agent session as a conversation from its hit, with its resume command", async (a) => {
		const page = await openPage(`?q=${a.word}&agent=${a.agent}`);
		const hit = page.locator("#list .row", { has: page.locator(`a.title[href*="session=${a.session}"]`) });
		await hit.locator(".title").click();
		await page.waitForSelector("#reader .message.focus");
		expect(await page.textContent("#reader .message.focus")).toContain(a.word);
		expect((await page.textContent("#reader .reader-head .facts"))?.split(" · ")).toContain(a.agent);
		expect(await page.textContent("#reader .reader-head .copy code")).toBe(a.resume);
		expect(await drawn(page, `#reader .message.user:has-text(${JSON.stringify(a.user)})`)).toBe(true);
		// The tool's call on the assistant's message, its output in a tool message of its own, one line that expands.
		expect(await drawn(page, `#reader .message.assistant .tool.call .tool-name:text-is("→ ${a.tool.name}")`)).toBe(true);
		const tool = `#reader .message.tool .tool.result:has(.tool-name:text-is("← ${a.tool.name}"))`;
		expect(await drawn(page, tool)).toBe(true);
		const result = page.locator(tool).first();
		if ((await result.locator(".tool-text").count()) === 0) await result.locator(".tool-line").click();
		expect(await result.locator(".tool-text").textContent()).toContain(a.tool.output);
		await page.close();
	});

	it.each(AGENTS)("links the $agent tool call that spawned a sub-agent to the sub-agent's conversation, and back", async (a) => {
		const page = await openSession(a.session);
		await followSubagentAndBack(page, a.session, a.subagent.id, a.subagent.says);
		await page.close();
	});
});

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
