/** The browser viewer over `lookback serve`, in real Chromium, and the server's safety rules. */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { serveViewer, type Serving } from "../../src/node/serve.js";
import { launchChromium } from "../browser.js";
import { FIXTURES } from "../helpers.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
let browser: Browser;
let serving: Serving;
let indexPath: string;
let dir: string;

beforeAll(async () => {
	// Not tempDir(): that one is removed after each test, and this index serves the whole file.
	dir = mkdtempSync(join(tmpdir(), "viewer-"));
	indexPath = join(dir, "index.db");
	const opened = await openNodeIndex({ indexPath, sessionsDirs: [FIXTURES], onlySessionsDirs: true, env: {} });
	await opened.index.sync(opened.source);
	opened.index.close();
	serving = await serveViewer({ indexPath, webDir: WEB });
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	await serving?.close();
	rmSync(dir, { recursive: true, force: true });
});

function raw(path: string, options: { method?: string; host?: string } = {}): Promise<{ status: number; body: string }> {
	const { port } = serving.server.address() as AddressInfo;
	return new Promise((resolve, reject) => {
		const req = request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: { host: options.host ?? `127.0.0.1:${port}` } }, (res) => {
			let body = "";
			res.on("data", (c) => (body += c));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
		});
		req.on("error", reject);
		req.end();
	});
}

describe("the viewer", () => {
	it("searches the index in the page and shows the session around a hit", async () => {
		const page = await browser.newPage();
		await page.goto(serving.url);
		await page.waitForSelector("body[data-ready=true]");
		expect(await page.textContent("#status")).toMatch(/^10 sessions, \d+ messages$/);
		await page.fill("#query", "RabbitMQ quorum");
		await page.press("#query", "Enter");
		await page.waitForSelector("#results li");
		const first = page.locator("#results li").first();
		expect(await first.locator(".title").textContent()).toBe("Order queue: dead-letter handling");
		expect(await first.locator("mark").first().textContent()).toBe("RabbitMQ");
		expect(await first.locator(".facts").textContent()).toContain("abandoned");
		await first.locator(".title").click();
		await page.waitForSelector("#session .message.focus");
		expect(await page.textContent("#session .message.focus pre")).toContain("RabbitMQ");
		expect(await page.textContent("#session h2")).toBe("Order queue: dead-letter handling");
		await page.fill("#query", "锁");
		await page.press("#query", "Enter");
		await page.waitForFunction(() => document.querySelector("#results .title")?.textContent === "批量导入死锁排查");
	});
});

describe("lookback serve", () => {
	it("listens on 127.0.0.1 only", () => {
		expect((serving.server.address() as AddressInfo).address).toBe("127.0.0.1");
	});

	it("refuses foreign Host headers, other methods, and any path outside its few files", async () => {
		expect((await raw("/", { host: "evil.example:80" })).status).toBe(403);
		expect((await raw("/", { host: "127.0.0.1" })).status).toBe(403);
		expect((await raw("/", { host: "attacker.test:1234" })).status).toBe(403);
		expect((await raw("/index.db", { method: "POST" })).status).toBe(405);
		expect((await raw("/index.db", { method: "PUT" })).status).toBe(405);
		for (const path of ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd", "/app.js/../../../package.json", "/package.json", "/dist/cli.js", "//etc/passwd", "/index.db%00.html"]) {
			const r = await raw(path);
			expect(r.status, path).toBe(404);
			expect(r.body).not.toContain("root:");
		}
		expect((await raw("/")).status).toBe(200);
		expect((await raw("/localhost-check", { host: `localhost:${(serving.server.address() as AddressInfo).port}` })).status).toBe(404);
	});

	it("never writes: the index file and its folder are as they were", async () => {
		const before = statSync(indexPath);
		const files = readdirSync(join(indexPath, ".."));
		const page = await browser.newPage();
		await page.goto(serving.url);
		await page.waitForSelector("body[data-ready=true]");
		await raw("/index.db");
		const after = statSync(indexPath);
		expect([after.mtimeMs, after.size, after.ino]).toEqual([before.mtimeMs, before.size, before.ino]);
		expect(readdirSync(join(indexPath, ".."))).toEqual(files);
	});
});
