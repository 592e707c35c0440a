/**
 * The viewer over a team, in real Chromium: `lookback serve --remote` (the bucket through the server's /team route)
 * and the static page given a bucket's URL on another origin (nginx with CORS). Every machine's sessions listed with
 * its name, the machine as a filter, a hit opened from its own shard.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { teamRoute } from "../../src/node/team/team-route.js";
import { launchChromium, serve, tokenHeader, withToken } from "../browser.js";
import { tempDir } from "../helpers.js";
import { json, lookback, machine, session } from "../team-helpers.js";
import { freePort, type Running, startNginx } from "../team-servers.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
let browser: Browser;
let root: string;

beforeAll(async () => {
	// Not tempDir(): that one is removed after each test, and this bucket serves both.
	root = mkdtempSync(join(tmpdir(), "team-viewer-"));
	for (const name of ["laptop", "devbox"]) {
		const m = machine(name);
		session(m, `lyrebird ${name} outage`, `middle ${name}`, `/home/dev/${name}-project`);
		json(await lookback(["publish", pathToFileURL(join(root, "team")).href, "--as", name, "--json", ...m.args]));
	}
	browser = await launchChromium();
});
afterAll(async () => {
	await browser?.close();
	rmSync(root, { recursive: true, force: true });
});

async function checkTeamPage(page: Page, url: string): Promise<void> {
	const said: string[] = [];
	page.on("console", (m) => said.push(m.text()));
	page.on("pageerror", (e) => said.push(e.message));
	await page.goto(url);
	await page.waitForSelector("#list[data-kind=recent] .row, #failure", { timeout: 15_000 }).catch(() => undefined);
	if (await page.locator("#failure").count()) throw new Error(`${await page.locator("#failure").textContent()} ${said.join(" | ")}`);
	await page.waitForSelector("#list[data-kind=recent] .row");
	expect(await page.locator("#list .row").count()).toBe(2);
	const facts = (await page.locator("#list .row .facts").allTextContents()).join("\n");
	expect(facts).toContain("laptop");
	expect(facts).toContain("devbox");
	expect(await page.locator("#machine option").allTextContents()).toEqual(["every machine (2)", "devbox (1)", "laptop (1)"]);

	await page.selectOption("#machine", "devbox");
	await page.waitForFunction(() => document.querySelectorAll("#list .row").length === 1);
	expect(await page.locator("#list .row .facts").textContent()).toContain("devbox");
	await page.selectOption("#machine", "");
	await page.fill("#query", "lyrebird outage");
	await page.waitForSelector("#list[data-kind=results] .row");
	await page.waitForFunction(() => document.querySelectorAll("#list[data-kind=results] .row").length === 2);
	await page.locator("#list .row .title").first().click();
	await page.waitForSelector(".reader");
	expect(await page.locator(".reader").textContent()).toMatch(/lyrebird (laptop|devbox) outage/);
}

describe("the viewer over a team", () => {
	it("lookback serve --remote passes the bucket through /team and shows every machine", async () => {
		const serving: Serving = await serveViewer({
			indexPath: join(tempDir("no-index"), "index.db"),
			webDir: WEB,
			team: teamRoute(pathToFileURL(join(root, "team")).href),
		});
		const page = await browser.newPage();
		try {
			await checkTeamPage(page, withToken(serving, "?team=team"));
			const refused = await fetch(`${serving.url}team/shards/laptop/../../secret`, { headers: tokenHeader(serving) });
			expect(refused.status).toBe(404);
			// The team's shards are session data: only with the token, as the index.
			expect((await fetch(`${serving.url}team/lookback-team.json`)).status).toBe(403);
			expect((await fetch(`${serving.url}team/lookback-team.json`, { headers: tokenHeader(serving) })).status).toBe(200);
		} finally {
			await page.close();
			await serving.close();
		}
	});

	it("the static page reads a bucket on another origin by ranges (nginx, CORS)", async () => {
		const nginx: Running = await startNginx(root, await freePort());
		const site = await serve({ "/": WEB });
		const page = await browser.newPage();
		try {
			await checkTeamPage(page, `${site.url}/?team=${encodeURIComponent(`${nginx.url}/team`)}`);
		} finally {
			await page.close();
			site.server.close();
			await nginx.close();
		}
	});
});
