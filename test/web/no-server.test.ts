/**
 * No-server mode in real Chromium: the built page from a plain static server with no index beside it indexes a
 * picked folder of Pi sessions in the browser, keeps the index in OPFS (opened in place, paged: counted reads) or
 * in IndexedDB, and the page in its service worker (so it reopens with the server stopped), rescans only changed
 * files, and says what is wrong with bad input, a second tab on the same OPFS index, or an unusable OPFS file.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import type { SessionSummary } from "../../src/core/index.js";
import { openNodeIndex } from "../../src/node/open.js";
import { serveViewer } from "../../src/node/serve.js";
import { S1, spilledProject } from "../agents/claude-lines.js";
import { launchChromium, serve, withToken } from "../browser.js";
import { FIXTURES } from "../helpers.js";
import { assistantMessage, newSession, sessionWith, userMessage } from "../pi-sessions.js";
import { AGENT_SESSIONS } from "./agent-sessions.js";
import { followSubagentAndBack } from "./reader-steps.js";

const WEB = join(import.meta.dirname, "..", "..", "dist", "web");
/** What the other agents' real CLIs wrote. */
const AGENT_FIXTURES = join(import.meta.dirname, "..", "fixtures");
let browser: Browser;
let dir: string;
/** The sample sessions, and one more written by Pi's SessionManager. */
let sessions: string;
let indexPath: string;
const servers: Server[] = [];

async function staticServer(): Promise<string> {
	const { url, server } = await serve({ "/": WEB });
	servers.push(server);
	return url;
}

function stop(url: string): Promise<void> {
	const server = servers.find((s) => s.listening && url.endsWith(`:${(s.address() as { port: number }).port}`));
	server?.closeAllConnections();
	return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "no-server-"));
	sessions = join(dir, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	rmSync(join(sessions, "README.md"));
	sessionWith(sessions, "How do we rotate the okapiCredential token?", "/home/dev/projects/vault");
	indexPath = join(dir, "index.db");
	const opened = await openNodeIndex({ indexPath, sessionsDirs: [sessions], onlySessionsDirs: true, env: {} });
	await opened.index.sync(opened.source);
	opened.index.close();
	browser = await launchChromium();
});

afterAll(async () => {
	await browser?.close();
	for (const s of servers) s.close();
	rmSync(dir, { recursive: true, force: true });
});

async function open(url: string, page?: Page): Promise<Page> {
	const p = page ?? (await (await browser.newContext({ viewport: { width: 1200, height: 760 } })).newPage());
	await p.goto(url);
	await p.waitForSelector("body[data-ready=true][data-mode=local]");
	return p;
}

/** Hand files to an input of the page and wait until the page has dealt with them. */
async function pick(page: Page, input: string, path: string): Promise<void> {
	const handled = Number(await page.getAttribute("#local", "data-handled"));
	await page.setInputFiles(input, path);
	await page.waitForSelector(`#local[data-handled="${handled + 1}"]`);
}

async function pickFolder(page: Page, folder: string): Promise<{ seen: number; parsed: number; added: number; grown: number }> {
	await pick(page, "#pick-folder", folder);
	const n = async (name: string) => Number(await page.getAttribute("#scan-report", `data-${name}`));
	return { seen: await n("seen"), parsed: await n("parsed"), added: await n("added"), grown: await n("grown") };
}

interface FileIo {
	reads: number;
	bytesRead: number;
	writes: number;
	fsyncs: number;
	size: number;
}

/** A call of the page's worker (protocol.ts), answered to the test instead of the page. */
async function askWorker<T>(page: Page, call: string, args: unknown): Promise<T> {
	const worker = page.workers().find((w) => w.url().endsWith("/worker.js"));
	if (!worker) throw new Error("the page has no worker");
	return worker.evaluate(
		([call, args]) =>
			new Promise<T>((resolve) => {
				const scope = self as unknown as { postMessage(m: unknown): void; onmessage(e: { data: unknown }): void };
				const post = scope.postMessage.bind(scope);
				scope.postMessage = (message: unknown) => {
					if ((message as { id?: number }).id !== -1) return post(message);
					scope.postMessage = post;
					resolve((message as { value: T }).value);
				};
				scope.onmessage({ data: { id: -1, call, args } });
			}),
		[call, args] as const,
	);
}

/** Reads of the index file in OPFS so far, from the page's worker (its own "transfer" call); undefined when not in OPFS. */
async function indexFileIo(page: Page): Promise<FileIo | undefined> {
	return (await askWorker<{ file?: FileIo }>(page, "transfer", {})).file;
}

async function findTitle(page: Page, query: string, title: string): Promise<void> {
	await page.fill("#query", query);
	await page.waitForFunction(
		([q, t]) => document.querySelector(`#list[data-kind=results][data-query="${q}"] .row .title`)?.textContent === t,
		[query, title],
	);
}

/**
 * Each agent's own folder as the real CLIs left it (test/fixtures), with what they keep there that is no session:
 * Codex's parent rollout compressed as Codex does after 7 idle days, and each CLI's prompt history; OpenCode's data
 * folder. Made once, with what the command line makes of them (every session, sub-agents too).
 */
let homesMade: Promise<{ homes: string; opencode: string; cli: SessionSummary[] }> | undefined;
function agentHomes(): Promise<{ homes: string; opencode: string; cli: SessionSummary[] }> {
	homesMade ??= (async () => {
		const homes = join(dir, "homes");
		cpSync(join(AGENT_FIXTURES, "claude"), join(homes, ".claude"), { recursive: true });
		cpSync(join(AGENT_FIXTURES, "codex"), join(homes, ".codex"), { recursive: true });
		cpSync(join(AGENT_FIXTURES, "gemini", "home", ".gemini"), join(homes, ".gemini"), { recursive: true });
		const day = join("sessions", "2026", "12", "01");
		const parent = readdirSync(join(homes, ".codex", day)).find((n) => n.includes(AGENT_SESSIONS[1].session)) ?? "";
		rmSync(join(homes, ".codex", day, parent));
		cpSync(join(AGENT_FIXTURES, "codex-compressed", day, `${parent}.zst`), join(homes, ".codex", day, `${parent}.zst`));
		const history = (line: object) => `${JSON.stringify(line)}\n`;
		writeFileSync(
			join(homes, ".codex", "history.jsonl"),
			history({ session_id: AGENT_SESSIONS[1].session, ts: 1, text: "historyOnlyWord" }),
		);
		writeFileSync(join(homes, ".claude", "history.jsonl"), history({ display: "historyOnlyWord", timestamp: 1, project: "/home/user" }));
		const opencode = join(homes, ".local", "share", "opencode");
		mkdirSync(opencode, { recursive: true });
		cpSync(join(AGENT_FIXTURES, "opencode", "opencode.db"), join(opencode, "opencode.db"));
		const env = {
			HOME: join(homes, "nobody"),
			CLAUDE_CONFIG_DIR: join(homes, ".claude"),
			CODEX_HOME: join(homes, ".codex"),
			GEMINI_CLI_HOME: homes,
		};
		const opened = await openNodeIndex({ indexPath: join(dir, "homes.db"), agentDir: join(dir, "homes-pi"), archive: false, env });
		await opened.index.sync(opened.source);
		const cli = opened.index.browse({ scope: "all", limit: 1000 });
		opened.index.close();
		return { homes, opencode, cli };
	})();
	return homesMade;
}

/** Sessions with their paths relative to `folder` (as a page is told them), in the order of their paths. */
function relativeTo(folder: string, sessions: SessionSummary[]): SessionSummary[] {
	const prefix = `${join(folder)}/`;
	const cut = (path: string) => (folder && path.startsWith(prefix) ? path.slice(prefix.length) : path);
	return sessions
		.map((s) => ({ ...s, path: cut(s.path), ...(s.spawnedBy ? { spawnedBy: cut(s.spawnedBy) } : {}) }))
		.sort((a, b) => a.path.localeCompare(b.path));
}

/** Every session the page's index holds, sub-agents too. */
function pickedSessions(page: Page): Promise<SessionSummary[]> {
	return askWorker<SessionSummary[]>(page, "browse", { scope: "all", limit: 1000 });
}

describe("no-server mode", () => {
	it.each([
		["OPFS", ""],
		["IndexedDB", "?store=indexeddb"],
	])(
		"indexes a picked folder in the browser, keeps it in %s, rescans only changed files, and reopens with the server stopped",
		async (kept, query) => {
			const url = await staticServer();
			const folder = join(dir, `sessions-${kept}`);
			cpSync(sessions, folder, { recursive: true });
			const page = await open(`${url}/${query}`);
			expect(await page.textContent("#local .notice")).toContain("No index is served here");
			const first = await pickFolder(page, folder);
			expect(first).toMatchObject({ seen: 11, parsed: 11, added: 11 });
			expect(await page.textContent("#status")).toMatch(new RegExp(`^11 sessions · [\\d.]+ MB · built in this browser · kept in ${kept}`));
			await findTitle(page, "okapiCredential", "How do we rotate the okapiCredential token?");
			await findTitle(page, "RabbitMQ quorum", "Order queue: dead-letter handling");

			// One session grows, one is new: picking the folder again parses those two only.
			const grown = newSession(folder, "/home/dev/projects/vault");
			grown.appendMessage(userMessage("Where is the quokkaLedger kept?"));
			grown.appendMessage(assistantMessage("In the vault."));
			const again = await pickFolder(page, folder);
			expect(again).toMatchObject({ seen: 12, parsed: 1, added: 1, grown: 0 });
			grown.appendMessage(userMessage("And the marmotBudget?"));
			const third = await pickFolder(page, folder);
			expect(third).toMatchObject({ seen: 12, parsed: 1, added: 0, grown: 1 });
			await findTitle(page, "marmotBudget", "Where is the quokkaLedger kept?");
			if (kept === "OPFS") {
				// Each scan committed to the file in place, flushed (SQLite's syncs of the journal and the file).
				const written = await indexFileIo(page);
				expect(written?.writes).toBeGreaterThan(0);
				expect(written?.fsyncs).toBeGreaterThanOrEqual(3 * 2);
			}

			// The page comes from its service worker, the index from where this browser keeps it: no server needed.
			await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
			await stop(url);
			await page.reload();
			await page.waitForSelector("body[data-ready=true][data-mode=local]");
			expect(await page.textContent("#offline")).toContain("No server answers");
			expect(await page.textContent("#status")).toMatch(new RegExp(`^12 sessions · [\\d.]+ MB · built in this browser · kept in ${kept}`));
			await findTitle(page, "quokkaLedger", "Where is the quokkaLedger kept?");
			const searched = await indexFileIo(page);
			if (kept === "OPFS") {
				// Opened in place: pages of the file read, nothing written (a larger index below shows how few are read).
				expect(searched?.bytesRead).toBeGreaterThan(0);
				expect(searched?.bytesRead).toBeLessThan(searched?.size ?? 0);
				expect(searched?.writes).toBe(0);
			} else expect(searched).toBeUndefined();
			await page.locator("#list .row .title").first().click();
			await page.waitForSelector("#reader .message.focus");
			expect(await page.textContent("#reader .message.focus")).toContain("quokkaLedger");

			// Picking the same folder again after the reload parses nothing: the index kept is the one built.
			expect(await pickFolder(page, folder)).toMatchObject({ seen: 12, parsed: 0 });
			await page.context().close();
		},
	);

	it("pages the index kept in OPFS: after a reload, opening and a search read a small part of the file", async () => {
		const corpus = join(dir, "corpus");
		generateCorpus({ out: corpus, mb: 8, seed: 3 });
		const page = await open(await staticServer());
		await pickFolder(page, join(corpus, "sessions"));
		await page.reload();
		await page.waitForSelector("body[data-ready=true][data-mode=local]");
		await page.fill("#query", "DHTDynamicResolverV2");
		await page.waitForSelector(`#list[data-kind=results][data-query="${"DHTDynamicResolverV2"}"] .row mark`);
		const io = await indexFileIo(page);
		expect(io?.writes).toBe(0);
		expect(io?.bytesRead).toBeGreaterThan(0);
		expect(io?.bytesRead).toBeLessThan((io?.size ?? 0) / 10);
		await page.context().close();
	});

	it("tells a second tab that the first holds the index in OPFS, and works in memory there without touching it", async () => {
		const context = await browser.newContext();
		const url = await staticServer();
		const first = await open(url, await context.newPage());
		await pickFolder(first, sessions);
		const second = await open(url, await context.newPage());
		expect(await second.textContent("#not-kept")).toContain("another tab of this page holds the index kept in this browser (OPFS)");
		expect(await second.textContent("#status")).toMatch(/^0 sessions .* · not kept/);
		await pickFolder(second, join(sessions, "--home-dev-projects-webshop--"));
		await findTitle(second, "RabbitMQ quorum", "Order queue: dead-letter handling");
		// The first tab's index is untouched; once it closes, the second opens it on reload.
		await findTitle(first, "okapiCredential", "How do we rotate the okapiCredential token?");
		await first.close();
		await second.reload();
		await second.waitForSelector("body[data-ready=true][data-mode=local]");
		expect(await second.textContent("#status")).toMatch(/^11 sessions · [\d.]+ MB · built in this browser · kept in OPFS/);
		expect(await second.locator("#not-kept").count()).toBe(0);
		await context.close();
	});

	it("sets an unusable index file in OPFS aside, says so, and builds a new one", async () => {
		const context = await browser.newContext();
		const url = await staticServer();
		// Kept in IndexedDB, the page leaves OPFS alone: put a damaged index file there.
		const page = await open(`${url}/?store=indexeddb`, await context.newPage());
		await page.evaluate(async () => {
			const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("lookback", { create: true });
			const writable = await (await folder.getFileHandle("index.db", { create: true })).createWritable();
			await writable.write(new Uint8Array(8192).fill(0xab));
			await writable.close();
		});
		await open(url, page);
		expect(await page.textContent("#status")).toMatch(/^0 sessions · [\d.]+ MB · built in this browser · kept in OPFS/);
		expect(await pickFolder(page, sessions)).toMatchObject({ seen: 11, parsed: 11 });
		expect(await page.textContent("#scan-problems")).toMatch(
			/the index kept in this browser was unusable \(.+\) and was built again; the old one is kept as OPFS lookback\/index\.db\.unusable-/,
		);
		const asideKept = await page.evaluate(async () => {
			const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("lookback");
			const list: string[] = [];
			for await (const name of (folder as unknown as { keys(): AsyncIterable<string> }).keys()) list.push(name);
			const aside = list.find((n) => /^index\.db\.unusable-[^-]/.test(n) && !n.endsWith("-journal"));
			const bytes = aside ? new Uint8Array(await (await (await folder.getFileHandle(aside)).getFile()).arrayBuffer()) : undefined;
			return bytes?.length === 8192 && bytes.every((b) => b === 0xab);
		});
		expect(asideKept).toBe(true);
		await page.reload();
		await page.waitForSelector("body[data-ready=true][data-mode=local]");
		expect(await page.textContent("#status")).toMatch(/^11 sessions/);
		await findTitle(page, "okapiCredential", "How do we rotate the okapiCredential token?");
		await context.close();
	});

	it("rolls back a transaction a crash left half written in OPFS, by its journal", async () => {
		// A crash mid-commit, made on Node with the same engine: pages of a big delete spilled into the file, the
		// originals in the journal, both copied before the rollback.
		const crash = join(dir, "crash");
		mkdirSync(crash, { recursive: true });
		const copy = join(crash, "index.db");
		cpSync(indexPath, copy);
		const opened = await openNodeIndex({ indexPath: copy, sessionsDirs: [sessions], onlySessionsDirs: true, env: {} });
		const db = opened.index.db;
		db.run("PRAGMA cache_size = 2");
		db.run("BEGIN IMMEDIATE");
		db.run("DELETE FROM entries");
		db.run("DELETE FROM sessions");
		const halfWritten = readFileSync(copy);
		const journal = readFileSync(`${copy}-journal`);
		db.run("ROLLBACK");
		opened.index.close();
		expect(halfWritten.equals(readFileSync(indexPath))).toBe(false);

		const context = await browser.newContext();
		const url = await staticServer();
		const page = await open(`${url}/?store=indexeddb`, await context.newPage());
		const put = (files: [string, number[]][]) =>
			page.evaluate(async (files) => {
				const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle("lookback", { create: true });
				for (const [name, bytes] of files) {
					const writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
					await writable.write(new Uint8Array(bytes));
					await writable.close();
				}
			}, files);
		// Without its journal the half-written file is not the index: the journal is what makes it whole.
		await put([
			["index.db", [...halfWritten]],
			["index.db-journal", []],
		]);
		await open(url, page);
		expect(await page.textContent("#status")).not.toMatch(/^11 sessions/);
		await open(`${url}/?store=indexeddb`, page);
		await put([
			["index.db", [...halfWritten]],
			["index.db-journal", [...journal]],
		]);
		await open(url, page);
		expect(await page.textContent("#status")).toMatch(/^11 sessions · [\d.]+ MB · built in this browser · kept in OPFS/);
		await findTitle(page, "okapiCredential", "How do we rotate the okapiCredential token?");
		await context.close();
	});

	it("moves an index an earlier visit kept in IndexedDB into OPFS once", async () => {
		const context = await browser.newContext();
		const url = await staticServer();
		const page = await open(`${url}/?store=indexeddb`, await context.newPage());
		await pickFolder(page, sessions);
		expect(await page.textContent("#status")).toMatch(/^11 sessions .* kept in IndexedDB/);
		await open(url, page);
		expect(await page.textContent("#status")).toMatch(/^11 sessions · [\d.]+ MB · built in this browser · kept in OPFS/);
		await findTitle(page, "okapiCredential", "How do we rotate the okapiCredential token?");
		expect(await pickFolder(page, sessions)).toMatchObject({ seen: 11, parsed: 0 });
		// Moved, not copied: IndexedDB holds no index any more.
		await open(`${url}/?store=indexeddb`, page);
		expect(await page.textContent("#status")).toMatch(/^0 sessions .* kept in IndexedDB/);
		await context.close();
	});

	it("reads a folder of the File System Access API again by itself on rescan", async () => {
		// Headless Chromium cannot answer the picker's dialog: it hands out a real folder handle of the page's own
		// private file system instead, filled with the sample sessions.
		const context = await browser.newContext();
		await context.addInitScript(() => {
			(window as unknown as { showDirectoryPicker(): Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () =>
				(await navigator.storage.getDirectory()).getDirectoryHandle("sessions");
		});
		const page = await open(await staticServer(), await context.newPage());
		const files = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
			.filter((f) => f.endsWith(".jsonl"))
			.map((f) => [f, readFileSync(join(FIXTURES, f), "utf8")]);
		const write = (list: string[][], append: boolean) =>
			page.evaluate(
				async ([list, append]) => {
					const root = await (await navigator.storage.getDirectory()).getDirectoryHandle("sessions", { create: true });
					for (const [path, text] of list as string[][]) {
						const [folder, name] = path.split("/");
						const file = await (await root.getDirectoryHandle(folder, { create: true })).getFileHandle(name, { create: true });
						const writable = await file.createWritable({ keepExistingData: append as boolean });
						if (append) await writable.seek((await file.getFile()).size);
						await writable.write(text);
						await writable.close();
					}
				},
				[list, append] as const,
			);
		await write(files, false);
		let handled = Number(await page.getAttribute("#local", "data-handled"));
		await page.click("#pick-folder-button");
		await page.waitForSelector(`#local[data-handled="${++handled}"]`);
		expect(await page.getAttribute("#scan-report", "data-parsed")).toBe(String(files.length));
		const [path, text] = files[0];
		const last = text.trim().split("\n").pop() ?? "";
		const message = { role: "user", content: [{ type: "text", text: "and the dingoRollback?" }], timestamp: Date.now() };
		const line = JSON.stringify({
			type: "message",
			id: "feedbeef",
			parentId: JSON.parse(last).id,
			timestamp: new Date().toISOString(),
			message,
		});
		await write([[path, `${line}\n`]], true);
		// The folder handle is kept with the index: after a reload, rescan reads the folder again without a pick.
		await page.reload();
		await page.waitForSelector("body[data-ready=true][data-mode=local]");
		handled = 0;
		await page.click("#rescan");
		await page.waitForSelector(`#local[data-handled="${++handled}"]`);
		expect(await page.getAttribute("#scan-report", "data-parsed")).toBe("1");
		expect(await page.getAttribute("#scan-report", "data-grown")).toBe("1");
		await page.fill("#query", "dingoRollback");
		await page.waitForSelector('#list[data-kind=results][data-query="dingoRollback"] .row');
		await context.close();
	});

	it("is what `lookback serve` shows before any index exists", async () => {
		const serving = await serveViewer({ indexPath: join(dir, "no-index-yet.db"), webDir: WEB });
		try {
			expect((await fetch(`${serving.url}sw.js`)).status).toBe(200);
			const page = await open(withToken(serving));
			await pickFolder(page, sessions);
			await findTitle(page, "okapiCredential", "How do we rotate the okapiCredential token?");
			await page.context().close();
		} finally {
			await serving.close();
		}
	});

	it("takes single session files, gzipped ones and Codex's compressed rollouts too, picked or dropped on the page", async () => {
		const loose = join(dir, "loose");
		const gz = newSession(loose, "/home/dev/projects/zoo");
		gz.appendMessage(userMessage("Archive note: the capybaraQueue drains nightly"));
		gz.appendMessage(assistantMessage("Noted."));
		writeFileSync(join(loose, "archived.jsonl.gz"), gzipSync(readFileSync(gz.getSessionFile()!)));
		const plain = newSession(loose, "/home/dev/projects/zoo");
		plain.appendMessage(userMessage("Dropped: where does the wombatLedger live?"));
		plain.appendMessage(assistantMessage("Nowhere yet."));
		const page = await open(await staticServer());
		await pick(page, "#pick-files", join(loose, "archived.jsonl.gz"));
		expect(await page.getAttribute("#scan-report", "data-added")).toBe("1");
		await findTitle(page, "capybaraQueue", "Archive note: the capybaraQueue drains nightly");
		// A Codex rollout compressed as Codex leaves it: Codex's by its name, inflated as it is read.
		const zst = readdirSync(join(AGENT_FIXTURES, "codex-compressed"), { recursive: true, encoding: "utf8" }).find((f) =>
			f.endsWith(".zst"),
		);
		await pick(page, "#pick-files", join(AGENT_FIXTURES, "codex-compressed", zst ?? ""));
		expect(await page.getAttribute("#scan-report", "data-added")).toBe("1");
		await findTitle(page, "quartz", "Please run it. SHELL echo zebra-quartz-42");
		expect(await page.textContent("#list .row .facts")).toContain("codex");
		const handled = Number(await page.getAttribute("#local", "data-handled"));
		await page.evaluate(
			(text) => {
				const data = new DataTransfer();
				data.items.add(new File([text], "2026-11-01T00-00-00-000Z_dropped.jsonl"));
				dispatchEvent(new DragEvent("drop", { dataTransfer: data, cancelable: true }));
			},
			readFileSync(plain.getSessionFile()!, "utf8"),
		);
		await page.waitForSelector(`#local[data-handled="${handled + 1}"]`);
		expect(await page.getAttribute("#scan-report", "data-added")).toBe("1");
		await findTitle(page, "wombatLedger", "Dropped: where does the wombatLedger live?");
		await page.context().close();
	});

	it("reads picked folders of Claude Code, Codex and Gemini CLI as the command line reads them, and names OpenCode's database it cannot read", async () => {
		const { homes, opencode, cli } = await agentHomes();
		const expected = relativeTo(homes, cli);
		expect(expected.map((s) => s.agent).sort()).toEqual([
			...Array(3).fill("claude"),
			...Array(2).fill("codex"),
			...Array(7).fill("gemini"),
		]);
		const page = await open(await staticServer());
		for (const home of [".claude", ".codex", ".gemini"]) {
			await pickFolder(page, join(homes, home));
			expect(await page.locator("#scan-problems").allTextContents(), home).toEqual([]);
		}
		expect(relativeTo("", await pickedSessions(page))).toEqual(expected);
		for (const a of AGENT_SESSIONS) {
			await page.fill("#query", a.word);
			const row = page.locator(`#list[data-kind=results][data-query="${a.word}"] .row:has(a.title[href*="session=${a.session}"])`);
			expect((await row.locator(".facts").textContent())?.split(" · ")).toContain(a.agent);
			await row.locator(".title").click();
			await page.waitForSelector("#reader .message.focus");
			expect(await page.textContent("#reader .reader-head .copy code")).toBe(a.resume);
			await followSubagentAndBack(page, a.session, a.subagent.id, a.subagent.says);
		}
		await page.fill("#query", "historyOnlyWord");
		await page.waitForSelector('#list[data-kind=results][data-query="historyOnlyWord"]');
		expect(await page.locator("#list .row").count()).toBe(0);

		// OpenCode's data folder: its database is named, nothing is read from it.
		await pickFolder(page, opencode);
		expect(await page.textContent("#opencode-note")).toMatch(
			/Not read: opencode\/opencode\.db\. OpenCode keeps its sessions in this database, which this page cannot read/,
		);
		expect(await page.getAttribute("#scan-report", "data-seen")).toBe("0");
		await page.context().close();
	});

	it("finds each agent's folders wherever the pick starts: Claude Code's one project, Codex's sessions, Gemini CLI's one project", async () => {
		const { homes, cli } = await agentHomes();
		const picked = [join(".claude", "projects", "-home-user-zebra-app"), join(".codex", "sessions"), join(".gemini", "tmp", "proj")];
		// As the command line read them, each path from the folder picked on (what the page is told of it).
		const expected = picked.flatMap((folder) =>
			relativeTo(
				join(homes, folder, ".."),
				cli.filter((s) => s.path.startsWith(`${join(homes, folder)}/`)),
			),
		);
		expect(expected.length).toBe(3 + 2 + 6);
		const page = await open(await staticServer());
		for (const folder of picked) {
			await pickFolder(page, join(homes, folder));
			expect(await page.locator("#scan-problems").allTextContents(), folder).toEqual([]);
		}
		// What the layouts decide of each file. (Not what it used: a message copied into several chats counts in the
		// one that started first, which may be one of the folders left unpicked.)
		const layout = (s: SessionSummary) => {
			const { path, agent, kind, sessionId, spawnedBy, spawnedBySessionId, cwd, project, resumeHint, messageCount } = s;
			return { path, agent, kind, sessionId, spawnedBy, spawnedBySessionId, cwd, project, resumeHint, messageCount };
		};
		expect(relativeTo("", await pickedSessions(page)).map(layout)).toEqual(relativeTo("", expected).map(layout));
		await page.context().close();
	});

	it("indexes the whole of a Claude Code tool output kept beside its session in tool-results/, as the command line does", async () => {
		const root = spilledProject("the capybaraSpill is at the end");
		const page = await open(await staticServer());
		await pickFolder(page, root);
		await page.fill("#query", "capybaraSpill");
		await page.waitForSelector(`#list[data-kind=results][data-query="capybaraSpill"] .row a.title[href*="session=${S1}"]`);
		await page.context().close();
	});

	it("names a malformed session file among good ones and indexes the good ones", async () => {
		const folder = join(dir, "mixed", "sessions");
		cpSync(join(sessions, "--home-dev-projects-webshop--"), join(folder, "--home-dev-projects-webshop--"), { recursive: true });
		writeFileSync(
			join(folder, "--home-dev-projects-webshop--", "2026-01-01T00-00-00-000Z_broken.jsonl"),
			'this is not json\n\u0000\u0001 binary junk\n{"half":',
		);
		const page = await open(await staticServer());
		await pickFolder(page, folder);
		expect(await page.textContent("#scan-problems")).toMatch(
			/sessions\/--home-dev-projects-webshop--\/2026-01-01T00-00-00-000Z_broken\.jsonl: nothing in it is a session entry \(2 malformed lines\)/,
		);
		await findTitle(page, "RabbitMQ quorum", "Order queue: dead-letter handling");
		await page.context().close();
	});

	it("refuses what is not a usable lookback index, says why, and keeps the index it has", async () => {
		const page = await open(await staticServer());
		const held = (await pickFolder(page, sessions)).seen;
		const good = readFileSync(indexPath);
		const bad = join(dir, "bad");
		mkdirSync(bad, { recursive: true });
		const newer = Buffer.from(good);
		newer.writeUInt32BE(99, 60);
		const corrupt = Buffer.from(good);
		corrupt.fill(0xab, 4096 * 2, Math.floor(good.length / 4096 / 2) * 4096);
		const cases: [string, Buffer, RegExp][] = [
			[
				"notes.md",
				readFileSync(join(FIXTURES, "README.md")),
				/notes\.md cannot be opened: it is not a lookback index \(not an SQLite database at all\)/,
			],
			["newer.db", newer, /newer\.db cannot be opened: it was written by a newer lookback \(index schema 99; this page reads schema \d+\)/],
			[
				"truncated.db",
				good.subarray(0, Math.floor(good.length / 2)),
				/truncated\.db cannot be opened: the file is truncated: it holds [\d,]+ bytes of the [\d,]+ its header announces/,
			],
			["corrupt.db", corrupt, /corrupt\.db cannot be opened: .*(damaged|malformed|corrupt)/],
		];
		for (const [name, bytes, message] of cases) {
			writeFileSync(join(bad, name), bytes);
			await pick(page, "#pick-index", join(bad, name));
			expect(await page.textContent("#local-error"), name).toMatch(message);
			expect(await page.textContent("#local-error")).toContain("Nothing this browser keeps was changed");
			await findTitle(page, "okapiCredential", "How do we rotate the okapiCredential token?");
		}
		// Nothing was replaced: after a reload the same index opens.
		await page.reload();
		await page.waitForSelector("body[data-ready=true][data-mode=local]");
		expect(await page.textContent("#status")).toMatch(new RegExp(`^${held} sessions`));

		// A good index file replaces it (the one replaced is kept aside).
		truncateSync(join(bad, "corrupt.db"), 0);
		await pick(page, "#pick-index", indexPath);
		expect(await page.locator("#local-error").count()).toBe(0);
		expect(await page.textContent("#status")).toMatch(/^11 sessions/);
		await findTitle(page, "RabbitMQ quorum", "Order queue: dead-letter handling");
		await page.context().close();
	});

	it("works in memory and says so where the browser keeps nothing (no IndexedDB)", async () => {
		const context = await browser.newContext();
		await context.addInitScript(() => Object.defineProperty(window, "indexedDB", { value: undefined }));
		const page = await open(await staticServer(), await context.newPage());
		expect(await page.textContent("#not-kept")).toContain("private mode?");
		await pickFolder(page, sessions);
		expect(await page.textContent("#status")).toContain("not kept");
		await findTitle(page, "死锁", "批量导入死锁排查");
		expect(await page.locator("#list .row").count()).toBeGreaterThan(0);
		await context.close();
	});
});
