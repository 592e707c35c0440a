/**
 * Served mode on an index of at least 200 MB: `lookback serve` hands the page a read-optimised snapshot, the
 * page's worker reads it by HTTP ranges, and a query transfers a small part of it — counted at the server.
 */
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countServedBytes } from "../../bench/served-bytes.mjs";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium } from "../browser.js";
import { generatedIndex } from "./generated-index.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
/** JSONL megabytes generated: 600 MB make a served snapshot of 231 MB (LOOKBACK_PAGED_MB enlarges it). */
const MB = Number(process.env.LOOKBACK_PAGED_MB ?? 600);
const MIN_INDEX_BYTES = 200e6;
let serving: Serving;
let browser: Browser;
let servedBytes: number;
let served: ReturnType<typeof countServedBytes>;

beforeAll(async () => {
	const generated = await generatedIndex(MB);
	if (generated.built) {
		const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
		console.log(
			`served mode: generated ${MB} MB of sessions in ${s(generated.built.generateMs)}, indexed them in ${s(generated.built.indexMs)} (kept for later runs in node_modules/.cache/lookback-test)`,
		);
	}
	serving = await serveViewer({ indexPath: generated.path, webDir: WEB });
	// The first request makes the read-optimised snapshot; its size is the file the page reads.
	const head = await fetch(`${serving.url}index.db`, { method: "HEAD" });
	servedBytes = Number(head.headers.get("content-length"));
	served = countServedBytes("/index.db");
	browser = await launchChromium();
}, 1_800_000);

afterAll(async () => {
	served?.stop();
	await browser?.close();
	await serving?.close();
});

describe("served mode by ranges", () => {
	it("serves an index of at least 200 MB", () => {
		expect(servedBytes).toBeGreaterThanOrEqual(MIN_INDEX_BYTES);
	});

	it("opens the index and answers a query while the server sends under 5% of the file", async () => {
		const sent = served.counts;
		const page = await browser.newPage();
		await page.goto(`${serving.url}?load=paged`);
		await page.waitForSelector("body[data-ready=true]");
		expect(await page.textContent("#status")).toContain("read by ranges");
		await page.waitForSelector("#list[data-kind=recent] .row");
		const opened = { ...sent };
		await page.fill("#query", "zanzibarRetryPolicy");
		await page.waitForSelector("#list[data-kind=results] .row mark");
		expect(await page.locator("#list .row mark").first().textContent()).toBe("zanzibarRetryPolicy");
		await page.locator("#list .row .title").first().click();
		await page.waitForSelector("#reader .message.focus");
		expect(await page.textContent("#reader .message.focus")).toContain("zanzibarRetryPolicy");
		const query = { requests: sent.requests - opened.requests, bytes: sent.bytes - opened.bytes };
		const kb = (b: number) => `${(b / 1e3).toFixed(0)} KB`;
		console.log(
			`served mode: index ${(servedBytes / 1e6).toFixed(1)} MB; open + landing ${opened.requests} requests ${kb(opened.bytes)}; query + read ${query.requests} requests ${kb(query.bytes)}; ${((100 * sent.bytes) / servedBytes).toFixed(2)}% of the file in all`,
		);
		expect(query.requests).toBeGreaterThan(0);
		expect(query.bytes).toBeLessThan(0.05 * servedBytes);
		expect(sent.bytes).toBeLessThan(0.05 * servedBytes);
		await page.close();
	});

	it("answers a common word filtered by time without reading most of the file", async () => {
		// Filters widen the ranking window until enough sessions pass them, here until every match of `error` is
		// ranked: each joined to its entry for the time. The snapshot's candidate index keeps that to a part of
		// the file (without it: 64% of the file in one query).
		const sent = served.counts;
		const page = await browser.newPage();
		await page.goto(`${serving.url}?load=paged&since=2026-10-30`);
		await page.waitForSelector("#list[data-kind=recent] .row");
		const before = { ...sent };
		await page.fill("#query", "error");
		await page.waitForSelector("#list[data-kind=results][data-query=error] .row");
		const query = { requests: sent.requests - before.requests, bytes: sent.bytes - before.bytes };
		console.log(
			`served mode: \`error\` since 2026-10-30: ${query.requests} requests ${(query.bytes / 1e6).toFixed(1)} MB (${((100 * query.bytes) / servedBytes).toFixed(1)}% of the file)`,
		);
		expect(query.bytes).toBeLessThan(0.15 * servedBytes);
		await page.close();
	});
});
