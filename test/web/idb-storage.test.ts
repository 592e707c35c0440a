import { readdirSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, serve } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";

let browser: Browser;
let server: Server;
let url: string;

beforeAll(async () => {
	const list = readdirSync(FIXTURES, { withFileTypes: true })
		.filter((d) => d.isDirectory())
		.flatMap((d) => readdirSync(join(FIXTURES, d.name)).map((f) => `${d.name}/${f}`));
	({ url, server } = await serve(
		{ "/sessions/": FIXTURES, "/": join(import.meta.dirname, "..", "..", "dist", "web") },
		{ "/sessions.json": JSON.stringify(list) },
	));
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	server?.close();
});

type Smoke = { engine: string; warnings: { kind: string }[]; added: number; saved: boolean; sessions: number; results: [string, string][] };

/** What smoke.html puts on the page. */
type SmokePage = { lookbackSmoke(mode: string, query: string): Promise<Smoke> };

describe("the core in Chromium", () => {
	it("indexes into IndexedDB, and finds the same after a reload without syncing", async () => {
		const page = await (await browser.newContext()).newPage();
		await page.goto(`${url}/smoke.html`);
		await page.waitForFunction(() => "lookbackSmoke" in globalThis);
		const built = (await page.evaluate(() => (globalThis as unknown as SmokePage).lookbackSmoke("build", "死锁"))) as Smoke;
		expect(built).toMatchObject({ engine: "3.52.0", added: 10, saved: true, sessions: 10, warnings: [] });
		expect(built.results.map((r) => r[0])).toEqual([SAMPLE.chinese]);
		await page.reload();
		await page.waitForFunction(() => "lookbackSmoke" in globalThis);
		const reopened = (await page.evaluate(() => (globalThis as unknown as SmokePage).lookbackSmoke("reopen", "死锁"))) as Smoke;
		expect(reopened).toMatchObject({ saved: false, sessions: 10 });
		expect(reopened.results).toEqual(built.results);
		const substring = (await page.evaluate(() => (globalThis as unknown as SmokePage).lookbackSmoke("reopen", "tateSto"))) as Smoke;
		expect(substring.results[0][0]).toBe(SAMPLE.linear);
	});

	it("sets a corrupt IndexedDB index aside and rebuilds it", async () => {
		const page = await (await browser.newContext()).newPage();
		await page.goto(`${url}/smoke.html`);
		await page.waitForFunction(() => "lookbackSmoke" in globalThis);
		const rebuilt = (await page.evaluate(() => (globalThis as unknown as SmokePage).lookbackSmoke("corrupt", "amqplib"))) as Smoke;
		expect(rebuilt.warnings[0]).toMatchObject({ kind: "index-rebuilt" });
		expect(rebuilt).toMatchObject({ added: 10, saved: true });
		expect(rebuilt.results.map((r) => r[0])).toEqual([SAMPLE.branched]);
	});
});
