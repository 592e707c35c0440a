/** The browser viewer over `lookback serve`, in real Chromium, and the server's safety rules. */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { type Serving, serveViewer } from "../../src/node/serve.js";
import { launchChromium, tokenHeader, withToken } from "../browser.js";
import { FIXTURES, SAMPLE } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { watchedPage } from "./watched-page.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
// README's screenshots are taken again with `npm run screenshots`; a plain test run keeps its pictures out of the tree.
const SHOTS = process.env.LOOKBACK_SCREENSHOTS ?? join(tmpdir(), "lookback-viewer-shots");
let browser: Browser;
let serving: Serving;
let indexPath: string;
let dir: string;

/** Text a transcript may hold that must stay text: scripts, handlers, javascript: links, remote images. */
const HOSTILE = [
	"Look: <script>window.__pwned = 'script'</script> and <img src=x onerror=\"window.__pwned = 'img'\">",
	"[press me](javascript:window.__pwned='link') and ![tracker](http://example.invalid/pixel.png) and <iframe src=\"http://example.invalid/\"></iframe>",
	"hostilemarker `<b>bold?</b>`",
].join("\n\n");

beforeAll(async () => {
	// Not tempDir(): that one is removed after each test, and this index serves the whole file.
	dir = mkdtempSync(join(tmpdir(), "viewer-"));
	const sessions = join(dir, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	const sm = newSession(sessions, "/home/dev/hostile");
	sm.appendMessage(userMessage(HOSTILE));
	sm.appendMessage(
		assistantMessage(`Here is what you sent:\n\n${HOSTILE}\n\n\`\`\`ts\nconst answer: number = 42;\n\`\`\``, [
			{ name: "bash", arguments: { command: "echo '<script>alert(1)</script>'" } },
		]),
	);
	sm.appendMessage(toolResult("bash", "<script>window.__pwned='tool'</script>"));
	indexPath = join(dir, "index.db");
	const opened = await openNodeIndex({ indexPath, sessionsDirs: [sessions], onlySessionsDirs: true, env: {} });
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

function raw(
	path: string,
	options: { method?: string; host?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
	const { port } = serving.server.address() as AddressInfo;
	return new Promise((resolve, reject) => {
		const req = request(
			{
				host: "127.0.0.1",
				port,
				path,
				method: options.method ?? "GET",
				headers: { host: options.host ?? `127.0.0.1:${port}`, ...tokenHeader(serving), ...options.headers },
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (c: Buffer) => chunks.push(c));
				res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
			},
		);
		req.on("error", reject);
		req.end();
	});
}

async function shot(page: Page, name: string): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function openPage(url = serving.url): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
	await page.goto(withToken(serving, url));
	await page.waitForSelector("body[data-ready=true]");
	return page;
}

describe("the viewer", () => {
	it("lands on the recent sessions, the activity per day and the projects", async () => {
		const page = await openPage();
		await page.waitForSelector("#list[data-kind=recent] .row");
		expect(await page.textContent("#status")).toMatch(/^11 sessions · [\d.]+ MB · downloaded/);
		expect(await page.locator("#list .row .title").first().textContent()).toBe(HOSTILE.slice(0, 100));
		const titles = await page.locator("#list .row .title").allTextContents();
		expect(titles).toContain("Order queue: dead-letter handling");
		expect(await page.locator(".projects li").allTextContents()).toContainEqual(expect.stringMatching(/^inventory-api 3 sessions/));
		await shot(page, "landing");
		const bars = page.locator(".activity rect.bar[height]:not([height='0'])");
		const day = await bars.first().getAttribute("data-day");
		await bars.first().click();
		await page.waitForFunction((d) => document.querySelector("#list .pane-title")?.textContent?.endsWith(`on ${d}`), day);
		expect(new URL(page.url()).searchParams.get("since")).toBe(day);
		await page.waitForFunction(() => document.querySelectorAll("#list .row").length < 11);
		await page.close();
	});

	it("finds a session as you type and shows the hit on its abandoned branch, and a deep link reloads to it", async () => {
		const page = await openPage();
		await page.fill("#query", "RabbitMQ quorum");
		await page.waitForSelector("#list[data-kind=results] .row");
		const first = page.locator("#list .row").first();
		expect(await first.locator(".title").textContent()).toBe("Order queue: dead-letter handling");
		expect(await first.locator("mark").first().textContent()).toBe("RabbitMQ");
		expect(await first.locator(".badge").textContent()).toBe("abandoned");
		await shot(page, "search");
		await first.locator(".title").click();
		await page.waitForSelector("#reader .message.focus");
		expect(await page.textContent("#reader .message.focus")).toContain("RabbitMQ");
		expect(await page.textContent("#reader .message.focus .badge")).toBe("abandoned");
		expect(await page.textContent("#reader h2")).toBe("Order queue: dead-letter handling");
		expect(await page.textContent("#reader .copy code")).toBe(`pi --session ${SAMPLE.branched}`);
		await shot(page, "reader");
		const link = new URL(page.url());
		expect(link.searchParams.get("q")).toBe("RabbitMQ quorum");
		expect(link.searchParams.get("session")).toBe(SAMPLE.branched);
		const entry = link.searchParams.get("entry");
		expect(entry).toBeTruthy();
		const again = await openPage(link.href);
		await again.waitForSelector("#reader .message.focus");
		expect(await again.getAttribute("#reader .message.focus", "data-entry")).toBe(entry);
		expect(await again.inputValue("#query")).toBe("RabbitMQ quorum");
		await again.waitForSelector("#list[data-kind=results] .row");
		await page.fill("#query", "锁");
		await page.waitForFunction(() => document.querySelector("#list .row .title")?.textContent === "批量导入死锁排查");
		await again.close();
		await page.close();
	});

	it("is driven by the keyboard: / to search, arrows to choose, Enter to open, Esc to go back", async () => {
		const page = await openPage();
		await page.keyboard.press("/");
		expect(await page.evaluate(() => document.activeElement?.id)).toBe("query");
		await page.keyboard.type("the");
		// Results for "t" or "th" may show first: wait for the list of the whole query.
		await page.waitForFunction(() => document.querySelectorAll('#list[data-kind=results][data-query="the"] .row').length >= 2);
		const second = await page.locator("#list .row .title").nth(1).textContent();
		await page.keyboard.press("ArrowDown");
		expect(await page.locator("#list .row.selected .title").textContent()).toBe(second);
		await page.keyboard.press("Enter");
		await page.waitForFunction((t) => document.querySelector("#reader .reader h2")?.textContent === t, second);
		await page.keyboard.press("Escape");
		await page.waitForFunction(() => !document.querySelector("#reader .reader") && document.querySelector("#reader .landing"));
		expect(new URL(page.url()).searchParams.get("session")).toBeNull();
		await page.close();
	});

	it("opens the top result of the query as typed on Enter pressed at once, never the row selected before", async () => {
		const page = await openPage();
		await page.waitForSelector("#list[data-kind=recent] .row.selected");
		const before = await page.locator("#list .row.selected .title").textContent();
		// A paste (one input event with the whole text) and Enter before the query's results can have arrived.
		await page.focus("#query");
		await page.fill("#query", "ioredis");
		await page.keyboard.press("Enter");
		await page.waitForSelector("#reader .reader h2");
		expect(await page.textContent("#reader .reader h2")).toBe("Retry policy for payment webhooks");
		expect(before).not.toBe("Retry policy for payment webhooks");
		expect(new URL(page.url()).searchParams.get("q")).toBe("ioredis");
		await page.close();
	});

	it("shows every filter's whole label inside its row at 420 and 1,400 px, each reached by Tab", async () => {
		const names = ["project", "agent", "role", "branch", "gone", "since", "until"];
		for (const width of [420, 1400]) {
			const page = await browser.newPage({ viewport: { width, height: 760 } });
			await page.goto(withToken(serving, "?q=RabbitMQ+quorum"));
			await page.waitForSelector("#list[data-kind=results] .row");
			const controls = await page.evaluate(() => {
				const row = document.querySelector(".filters") as HTMLElement;
				const box = row.getBoundingClientRect();
				const text = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
				return Array.from(row.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select"), (el) => {
					const b = el.getBoundingClientRect();
					let needs: number;
					let has: number;
					if (el instanceof HTMLSelectElement) {
						// A select cut short keeps scrollWidth = clientWidth, so ask the browser: the width it gives a copy left
						// to size itself is its widest option with the padding and the arrow.
						const free = el.cloneNode(true) as HTMLSelectElement;
						free.style.cssText = "position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none";
						row.append(free);
						needs = free.offsetWidth;
						free.remove();
						has = el.offsetWidth;
					} else {
						const style = getComputedStyle(el);
						text.font = style.font;
						needs = Math.ceil(text.measureText(el.placeholder).width);
						has = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
					}
					return { name: el.name, needs, has, inside: b.left >= box.left && b.right <= box.right + 0.5 };
				});
			});
			expect(controls.map((c) => c.name)).toEqual(names);
			for (const c of controls) {
				expect(c.has, `${c.name} at ${width} px`).toBeGreaterThanOrEqual(c.needs);
				expect(c.inside, `${c.name} at ${width} px`).toBe(true);
			}
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
			await page.focus("#query");
			const reached: string[] = [];
			for (const _ of names) {
				await page.keyboard.press("Tab");
				reached.push(await page.evaluate(() => document.activeElement?.getAttribute("name") ?? ""));
			}
			expect(reached).toEqual(names);
			await page.close();
		}
	});

	it("opens a hit by a click on its snippet, the text people aim at", async () => {
		const page = await openPage();
		await page.fill("#query", "RabbitMQ quorum");
		await page.waitForSelector('#list[data-kind=results][data-query="RabbitMQ quorum"] .row');
		await page.locator("#list .row").first().locator(".snippet mark").first().click();
		await page.waitForSelector("#reader .message.focus");
		expect(await page.textContent("#reader .reader h2")).toBe("Order queue: dead-letter handling");
		expect(await page.textContent("#reader .message.focus")).toContain("RabbitMQ");
		await page.close();
	});

	it("never runs or loads anything a session holds", async () => {
		const { page, foreign } = await watchedPage(browser, serving.url);
		const errors: string[] = [];
		page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
		await page.goto(withToken(serving));
		await page.waitForSelector("body[data-ready=true]");
		await page.fill("#query", "hostilemarker");
		await page.waitForSelector("#list[data-kind=results] .row");
		await page.locator("#list .row .title").first().click();
		await page.waitForSelector("#reader .message.user");
		for (const button of await page.locator("#reader .tool-line").all()) await button.click();
		const md = page.locator("#reader .md").first();
		expect(await md.textContent()).toContain("<script>window.__pwned = 'script'</script>");
		expect(await md.textContent()).toContain("[image: tracker]");
		expect(await page.locator("#reader script, #reader img, #reader iframe, #reader [onerror]").count()).toBe(0);
		expect(await page.locator("#reader a[href^='javascript']").count()).toBe(0);
		expect(await page.textContent("#reader .tool-text >> nth=-1")).toContain("<script>window.__pwned='tool'</script>");
		expect(await page.locator("#reader .hljs-keyword").count()).toBeGreaterThan(0);
		// Even markup injected by a flaw would be stopped: the page runs under a CSP with no inline script.
		expect((await raw("/")).headers["content-security-policy"]).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
		expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
		expect(foreign).toEqual([]);
		await page.close();
	});

	it("says what is wrong when the served file is not a lookback index, and when the server went away", async () => {
		const bad = mkdtempSync(join(tmpdir(), "viewer-bad-"));
		try {
			const foreign = join(bad, "index.db");
			cpSync(join(FIXTURES, "README.md"), foreign);
			const other = await serveViewer({ indexPath: foreign, webDir: WEB });
			const page = await browser.newPage();
			await page.goto(withToken(other));
			await page.waitForSelector("body[data-ready=error]");
			expect(await page.textContent("#failure")).toMatch(/Cannot open the index: .*(not a lookback index|unreadable)/);
			await page.close();
			await other.close();

			const live = await serveViewer({ indexPath, webDir: WEB });
			const gone = await browser.newPage();
			await gone.goto(withToken(live));
			await gone.waitForSelector("body[data-ready=true]");
			live.server.closeAllConnections();
			await live.close();
			await gone.waitForSelector(".changed", { timeout: 30_000 });
			expect(await gone.textContent(".changed")).toContain("does not answer");
			await gone.fill("#query", "RabbitMQ");
			await gone.waitForFunction(() => document.querySelector("#list .row .title")?.textContent === "Order queue: dead-letter handling");
			await gone.close();
		} finally {
			rmSync(bad, { recursive: true, force: true });
		}
	});
});

describe("lookback serve", () => {
	it("listens on 127.0.0.1 only", () => {
		expect((serving.server.address() as AddressInfo).address).toBe("127.0.0.1");
	});

	it("gives a browser without the token nothing of a session, and the page says to open the printed URL", async () => {
		const stranger = await browser.newPage();
		const asked: string[] = [];
		stranger.on("response", (r) => asked.push(`${new URL(r.url()).pathname} ${r.status()}`));
		await stranger.goto(serving.url);
		await stranger.waitForSelector("body[data-ready=error]");
		expect(await stranger.textContent("#failure")).toContain("open the URL it printed");
		expect(asked.filter((a) => a.startsWith("/index.db"))).toEqual(["/index.db 403"]);
		// The token in the address is traded for a cookie: the same browser then reads, and the address keeps no token.
		await stranger.goto(withToken(serving, "?q=RabbitMQ"));
		await stranger.waitForSelector("#list[data-kind=results] .row");
		expect(stranger.url()).not.toContain("token");
		await stranger.close();
	});

	it("refuses foreign Host headers, other methods, and any path outside its few files", async () => {
		expect((await raw("/", { host: "evil.example:80" })).status).toBe(403);
		expect((await raw("/", { host: "127.0.0.1" })).status).toBe(403);
		expect((await raw("/", { host: "attacker.test:1234" })).status).toBe(403);
		expect((await raw("/index.db", { method: "POST" })).status).toBe(405);
		expect((await raw("/index.db", { method: "PUT" })).status).toBe(405);
		for (const path of [
			"/../../../../etc/passwd",
			"/%2e%2e/%2e%2e/etc/passwd",
			"/..%2f..%2fetc%2fpasswd",
			"/app.js/../../../package.json",
			"/package.json",
			"/dist/cli.js",
			"//etc/passwd",
			"/index.db%00.html",
		]) {
			const r = await raw(path);
			expect(r.status, path).toBe(404);
			expect(r.body.toString()).not.toContain("root:");
		}
		expect((await raw("/")).status).toBe(200);
		expect((await raw("/localhost-check", { host: `localhost:${(serving.server.address() as AddressInfo).port}` })).status).toBe(404);
	});

	it("sends the page's own files gzipped to a browser that takes gzip, as they are to one that does not, and the index never", async () => {
		for (const [path, name] of [
			["/worker.js", "worker.js"],
			["/sql-wasm.wasm", "sql-wasm.wasm"],
			["/", "index.html"],
		]) {
			const file = readFileSync(join(WEB, name));
			const zipped = await raw(path, { headers: { "accept-encoding": "gzip, deflate, br" } });
			expect(zipped.headers["content-encoding"], path).toBe("gzip");
			expect(zipped.headers.vary).toBe("accept-encoding");
			expect(gunzipSync(zipped.body).equals(file), path).toBe(true);
			if (file.length > 100_000) expect(zipped.body.length, path).toBeLessThan(file.length / 1.8);
			for (const accept of [undefined, "identity", "gzip;q=0, deflate", "gzip;q=0, *"]) {
				const plain = await raw(path, accept ? { headers: { "accept-encoding": accept } } : {});
				expect(plain.headers["content-encoding"], `${path} ${accept}`).toBeUndefined();
				expect(plain.body.equals(file), `${path} ${accept}`).toBe(true);
			}
			const head = await raw(path, { method: "HEAD", headers: { "accept-encoding": "gzip" } });
			expect(head.headers["content-length"]).toBe(String(zipped.body.length));
			expect(head.body.length).toBe(0);
		}
		const index = await raw("/index.db", { headers: { "accept-encoding": "gzip", range: "bytes=0-99" } });
		expect(index.status).toBe(206);
		expect(index.headers["content-encoding"]).toBeUndefined();
	});

	it("answers byte ranges of the index with a strong ETag, 416 for a bad range, the whole new file for a stale If-Range", async () => {
		const whole = await raw("/index.db");
		expect(whole.status).toBe(200);
		expect(whole.headers["accept-ranges"]).toBe("bytes");
		const etag = String(whole.headers.etag);
		expect(etag).toMatch(/^"[^"]+"$/);
		expect(whole.body.subarray(0, 16).toString()).toBe("SQLite format 3\0");
		const part = await raw("/index.db", { headers: { range: "bytes=100-4195", "if-range": etag } });
		expect(part.status).toBe(206);
		expect(part.headers["content-range"]).toBe(`bytes 100-4195/${whole.body.length}`);
		expect(part.body.equals(whole.body.subarray(100, 4196))).toBe(true);
		expect((await raw("/index.db", { headers: { range: "bytes=-10" } })).body.equals(whole.body.subarray(-10))).toBe(true);
		for (const range of [`bytes=${whole.body.length}-`, "bytes=9-3", "bytes=0-1,5-9", "lines=1-2"]) {
			const r = await raw("/index.db", { headers: { range } });
			expect(r.status, range).toBe(416);
			expect(r.headers["content-range"]).toBe(`bytes */${whole.body.length}`);
		}
		const stale = await raw("/index.db", { headers: { range: "bytes=0-99", "if-range": '"an-older-copy"' } });
		expect(stale.status).toBe(200);
		expect(stale.body.length).toBe(whole.body.length);
	});

	it("serves a read-optimised copy and never writes beside the index", async () => {
		const before = statSync(indexPath);
		const files = readdirSync(dir);
		const page = await openPage();
		const served = (await raw("/index.db")).body;
		// The optimised copy (read-snapshot.ts), not the index as it is: it has the candidate index the index lacks.
		expect(served.includes("CREATE INDEX entries_candidates")).toBe(true);
		expect(readFileSync(indexPath).includes("CREATE INDEX entries_candidates")).toBe(false);
		const after = statSync(indexPath);
		expect([after.mtimeMs, after.size, after.ino]).toEqual([before.mtimeMs, before.size, before.ino]);
		expect(readdirSync(dir)).toEqual(files);
		await page.close();
	});
});
