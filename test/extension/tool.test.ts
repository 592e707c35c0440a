import { cpSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Text } from "@mariozechner/pi-tui";
import { afterEach, describe, expect, it } from "vitest";
import { boundedJson, DEFAULTS, type ToolHit } from "../../src/core/index.js";
import { runAction } from "../../src/extension/handoff.js";
import { liveContext, liveContextFilter } from "../../src/extension/live-context.js";
import { collapsed, renderResult } from "../../src/extension/render.js";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { summaryLines } from "../../src/extension/summary-lines.js";
import type { SessionSearchCall } from "../../src/extension/tool-calls.js";
import { HostIndex, type HostIndexOptions } from "../../src/node/host-index.js";
import type { NodeIndexOptions } from "../../src/node/open.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";

/** The index as the extension holds it: read here, synced by its indexer process; closed after the test. */
const hosts: HostIndex[] = [];
afterEach(() => {
	for (const h of hosts.splice(0)) h.close();
});
function hostIndex(options: NodeIndexOptions, hooks: HostIndexOptions = {}): HostIndex {
	const host = new HostIndex(options, hooks);
	hosts.push(host);
	return host;
}

async function agent(hooks: HostIndexOptions = {}) {
	const agentDir = join(tempDir("agent"), "agent");
	mkdirSync(agentDir, { recursive: true });
	cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
	const opened = hostIndex({ agentDir, env: { HOME: join(agentDir, "home") } }, hooks);
	return { agentDir, opened };
}

async function call(opened: HostIndex, params: Record<string, unknown>, exclude?: Parameters<typeof runSessionSearch>[2]) {
	const run = await runSessionSearch(opened, params, exclude);
	return { reply: JSON.parse(run.text), run };
}

describe("session_search modes", () => {
	it("discovery hydrates the top hit with its window and bookends, the rest with snippets", async () => {
		const { opened } = await agent();
		const { reply, run } = await call(opened, { query: "retry" });
		expect(run.details.mode).toBe("discovery");
		expect(reply.results.length).toBeGreaterThan(1);
		const top = reply.results[0];
		expect(top.context.window.some((m: { entryId: string }) => m.entryId === top.entryId)).toBe(true);
		expect(top.context.window.length).toBeLessThanOrEqual(11);
		expect(top.context.bookends.first.length + top.context.bookends.last.length).toBeLessThanOrEqual(6);
		expect(reply.results[1].context).toBeUndefined();
		for (const key of [
			"sessionId",
			"name",
			"cwd",
			"project",
			"time",
			"snippet",
			"messageCount",
			"path",
			"entryId",
			"branchState",
			"resumeHint",
		])
			expect(top).toHaveProperty(key);
		const full = (await call(opened, { query: "retry", detail: "full" })).reply;
		expect(full.results.every((r: { context?: unknown }) => r.context)).toBe(true);
	});

	it("scrolls around an entry on its branch and refuses an entry off the given branch", async () => {
		const { opened } = await agent();
		const hit = (await call(opened, { query: "amqplib" })).reply.results[0];
		const { reply } = await call(opened, { sessionId: hit.sessionId, aroundMessageId: hit.entryId, window: 2 });
		expect(reply.mode).toBe("scroll");
		expect(reply.messages.map((m: { entryId: string }) => m.entryId)).toContain(hit.entryId);
		expect(reply.messages.length).toBeLessThanOrEqual(5);
		const active = (await call(opened, { sessionId: hit.sessionId })).reply;
		await expect(call(opened, { sessionId: hit.sessionId, aroundMessageId: hit.entryId, branchTip: active.branchTip })).rejects.toThrow(
			/not on the branch/,
		);
	});

	it("reads a long session as its first 20 and last 10 messages, bounded to 50,000 characters", async () => {
		const { agentDir, opened } = await agent();
		const sm = newSession(join(agentDir, "sessions"), "/home/dev/long");
		for (let i = 0; i < 40; i++) {
			sm.appendMessage(userMessage(`question ${i} about the wombat ledger ${"lorem ipsum ".repeat(200)}`));
			sm.appendMessage(assistantMessage(`answer ${i}`, [{ name: "read", arguments: { path: `src/${i}.ts` } }]));
			sm.appendMessage(toolResult("read", "x".repeat(3000)));
		}
		await call(opened, {}); // browse syncs
		const { reply, run } = await call(opened, { sessionId: sm.getSessionId() });
		expect(reply.total).toBe(120);
		expect(reply.messages).toHaveLength(30);
		expect(reply.omitted.count).toBe(90);
		expect(run.text.length).toBeLessThanOrEqual(DEFAULTS.replyMaxChars);
		expect(reply.contentTruncated).toBe(true);
	});

	it("browses recent sessions with no arguments, and speaks the omp session store's shape for actions", async () => {
		const { opened } = await agent();
		const browse = (await call(opened, {})).reply;
		expect(browse.mode).toBe("browse");
		expect(browse.sessions[0].sessionId).toBe(SAMPLE.cliDates);
		expect(browse.sessions[0].preview).toMatch(/^Add --since and --until/);
		const keyword = (await call(opened, { action: "keyword", query: "RabbitMQ" })).reply;
		expect(keyword.action).toBe("keyword");
		expect(Object.keys(keyword.results[0])).toEqual(
			expect.arrayContaining([
				"session_id",
				"project",
				"cwd",
				"time",
				"title",
				"summary",
				"snippet",
				"path",
				"message_count",
				"resume_hint",
				"sessionId",
				"entryId",
			]),
		);
		const content = (await call(opened, { action: "content", query: "SQLITE_BUSY" })).reply;
		expect(content.results[0].session_id).toBe(SAMPLE.bash);
		expect(content.results[0].title).toMatch(/^The reservations tests fail with SQLITE_BUSY/);
		expect(
			(await call(opened, { action: "keyword", query: "SQLITE_BUSY database is locked" })).reply.results.map(
				(r: { session_id: string }) => r.session_id,
			),
		).not.toContain(undefined);
		const list = (await call(opened, { action: "list", project: "legacy" })).reply;
		expect(list.results.map((r: { session_id: string }) => r.session_id).sort()).toEqual([SAMPLE.v1, SAMPLE.v2].sort());
		expect(list.results.find((r: { session_id: string }) => r.session_id === SAMPLE.v1).summary).toMatch(/OPS-1187/);
		await expect(call(opened, { action: "content" })).rejects.toThrow(/needs a query/);
	});

	it("refuses session ids that are paths outside the roots, use .., or link out", async () => {
		const { agentDir, opened } = await agent();
		const outside = join(tempDir(), "evil.jsonl");
		writeFileSync(outside, '{"type":"session","id":"x","version":3}\n');
		const link = join(agentDir, "sessions", "--home-dev-projects-webshop--", "link.jsonl");
		symlinkSync(outside, link);
		for (const ref of [
			outside,
			link,
			join(agentDir, "sessions", "..", "..", "evil.jsonl"),
			"/etc/passwd",
			join(agentDir, "sessions", "a\u0000b.jsonl"),
		]) {
			await expect(call(opened, { sessionId: ref }), ref).rejects.toThrow(/refusing/);
		}
		await expect(call(opened, { sessionId: "ffffffff" })).rejects.toThrow(/no indexed session/);
	});

	it("gives an explicit size error for a session file over 32 MiB, also for a stale hit", async () => {
		const { agentDir, opened } = await agent();
		const sm = newSession(join(agentDir, "sessions"), "/home/dev/huge");
		sm.appendMessage(userMessage("the giant aardvark log"));
		sm.appendMessage(assistantMessage("ok"));
		await call(opened, {});
		const hit = (await call(opened, { query: "aardvark" })).reply.results[0];
		expect(hit.context.window.length).toBeGreaterThan(0);
		const file = sm.getSessionFile()!;
		truncateSync(file, 33 * 2 ** 20); // grown past the limit since it was indexed
		const stale = (await runSessionSearch(opened, { query: "aardvark" })).text;
		const staleHit = JSON.parse(stale).results[0];
		expect(staleHit.context.error).toMatch(/over the 32 MiB limit/);
		expect(staleHit.context.window).toEqual([]);
		await expect(call(opened, { sessionId: file })).rejects.toThrow(/over the 32 MiB limit/);
		await expect(call(opened, { sessionId: sm.getSessionId(), aroundMessageId: hit.entryId })).rejects.toThrow(/over the 32 MiB limit/);
	});

	it("leaves out the asking session's live context but finds its compacted-away and abandoned parts", async () => {
		const { agentDir, opened } = await agent();
		const sm = newSession(join(agentDir, "sessions"), "/home/dev/current");
		sm.appendMessage(userMessage("early talk about the pelican cache"));
		sm.appendMessage(assistantMessage("noted, pelican"));
		const keep = sm.appendMessage(userMessage("later talk about the pelican queue"));
		sm.appendMessage(assistantMessage("ok"));
		sm.appendCompaction("summary of the early pelican talk", keep, 1000);
		sm.appendMessage(userMessage("now the pelican deploy"));
		sm.appendMessage(assistantMessage("deploying pelican"));
		const exclude = liveContextFilter(sm);
		const reply = (await call(opened, { query: "pelican", detail: "full" }, exclude)).reply;
		const mine = reply.results.find((r: { sessionId: string }) => r.sessionId === sm.getSessionId());
		expect(mine).toBeDefined();
		expect(mine.branchState).toBe("compacted");
		expect(["early", "noted"].some((w) => mine.snippet.includes(w))).toBe(true);
		// The phrase is only in the live context: left out, it matches nothing, and the plain words answer, outside it.
		const live = (await call(opened, { query: '"pelican deploy"' }, exclude)).reply;
		expect(live.reading).toBe("words");
		for (const hit of live.results as ToolHit[]) expect(exclude?.({ sessionPath: hit.path, entryId: hit.entryId })).toBe(false);
		// Nothing else of this project deploys: the reply says the live context hid it.
		const hidden = (await call(opened, { query: "deploying", project: "current" }, exclude)).reply;
		expect(hidden.results).toEqual([]);
		expect(hidden.why.hiddenBy).toContainEqual({ filter: "exclude", value: "the calling session's own messages", sessions: 1 });
		expect(hidden.notice).toMatch(/^nothing found: .*leaving out the calling session's own messages hid 1 session that matches/);
		const withoutExclusion = (await call(opened, { query: '"pelican deploy"' })).reply;
		expect(withoutExclusion.results).toHaveLength(1);
	});

	it("collapses a fork into its parent, naming the fork", async () => {
		const { opened } = await agent();
		const reply = (await call(opened, { query: "webhookClient" })).reply;
		const parent = reply.results.find((r: { sessionId: string }) => r.sessionId === SAMPLE.linear);
		expect(parent.forks.map((f: { sessionId: string }) => f.sessionId)).toEqual([SAMPLE.fork]);
		expect(reply.results.map((r: { sessionId: string }) => r.sessionId)).not.toContain(SAMPLE.fork);
	});

	it("reports what the sync before a search skipped", async () => {
		const { agentDir, opened } = await agent();
		mkdirSync(join(agentDir, "sessions", "--tmp-scratch--"));
		writeFileSync(join(agentDir, "sessions", "--tmp-scratch--", "a.jsonl"), "{}\n");
		const reply = (await call(opened, { query: "amqplib" })).reply;
		expect(reply.skipped).toEqual({ "tmp-folder": 1 });
	});
});

describe("reply shaping", () => {
	it("bounds any reply and says contentTruncated", () => {
		const reply = {
			mode: "read",
			messages: Array.from({ length: 100 }, (_, i) => ({ entryId: `e${i}`, role: "user", text: "y".repeat(5000) })),
		};
		const { text, truncated } = boundedJson(reply);
		expect(truncated).toBe(true);
		expect(text.length).toBeLessThanOrEqual(50_000);
		expect(JSON.parse(text).contentTruncated).toBe(true);
	});

	it("collapses to the last five lines and counts the earlier ones", () => {
		const hit = (i: number): ToolHit => ({
			sessionId: `s${i}`,
			snippet: `hit ${i}`,
			project: "p",
			messageCount: 1,
			path: `/s${i}.jsonl`,
			entryId: "e",
			role: "user",
			branchState: "active",
			hits: 1,
			resumeHint: "",
			agent: "pi",
			kind: "session",
		});
		const lines = summaryLines({ mode: "discovery", query: "hit", results: [0, 1, 2, 3].map(hit), total: 4 });
		expect(lines).toHaveLength(9);
		expect(collapsed(lines)).toEqual({ shown: lines.slice(4), hidden: 4 });
	});

	it("renders collapsed as the last five lines with a count, and everything on Ctrl+O", () => {
		const theme = { fg: (_c: string, t: string) => t, bold: (t: string) => t };
		const lines = [...Array.from({ length: 6 }, (_, i) => `line ${i}`), `long ${"word ".repeat(40)}end`];
		const result = { content: [{ type: "text", text: "{ the whole reply }" }], details: { lines } };
		const small = renderResult(Text, result, { expanded: false, isPartial: false }, theme).render(60);
		// The last line wraps into 4 visual lines at width 60: five visual lines are line 5 and the long one.
		expect(small.map((l) => l.trim())[0]).toBe("… 5 earlier lines (Ctrl+O to expand)");
		expect(small).toHaveLength(6);
		expect(small.join("\n")).toContain("line 5");
		expect(small.join("\n")).not.toContain("line 4");
		const big = renderResult(Text, result, { expanded: true, isPartial: false }, theme).render(120).join("\n");
		expect(big).toContain("{ the whole reply }");
	});
});

describe("the tool's calls in the indexer process", () => {
	it("answers session_search there, as in the host, while the host never opens the index", async () => {
		const { opened: host, agentDir } = await agent();
		const sm = newSession(join(agentDir, "sessions"), "/home/dev/current");
		sm.appendMessage(userMessage("the live pelican talk"));
		sm.appendMessage(assistantMessage("pelican noted"));
		const call: SessionSearchCall = { params: { query: "pelican OR amqplib", detail: "full" }, live: liveContext(sm) };
		const there = await host.call<{ text: string; details: { mode: string } }>("session_search", call);
		expect(host.status().state).toBe("not-opened");
		expect(host.indexer.place).toBe("child process");
		const reply = JSON.parse(there.text);
		expect(reply.results[0].sessionId).toBe(SAMPLE.branched);
		// The live context was left out there, as the host's own filter would.
		expect(JSON.stringify(reply)).not.toContain("the live pelican talk");
		expect(there.details.mode).toBe("discovery");
		const here = JSON.parse((await runSessionSearch(host, call.params, liveContextFilter(sm))).text);
		expect(here.results.map((r: { sessionId: string }) => r.sessionId)).toEqual(
			reply.results.map((r: { sessionId: string }) => r.sessionId),
		);
	});

	it("says why a call failed there, with the error's code", async () => {
		const { opened: host } = await agent();
		await expect(host.call("session_search", { params: { sessionId: "ffffffff" } })).rejects.toMatchObject({
			code: "session-not-found",
			message: expect.stringMatching(/no indexed session/),
		});
	});
});

describe("background indexing", () => {
	it("answers from what is indexed so far while a long sync runs, saying how far it got", async () => {
		// Every sync counts as long here: a search does not wait for it.
		const { opened } = await agent({ waitBytes: 0 });
		opened.background();
		const early = JSON.parse((await runSessionSearch(opened, { query: "amqplib" })).text);
		expect(early.indexing).toMatchObject({ total: 10, done: expect.any(Number) });
		await opened.indexer.sync().done;
		const later = JSON.parse((await runSessionSearch(opened, { query: "amqplib" })).text);
		expect(later.results[0].sessionId).toBe(SAMPLE.branched);
	});

	it("waits for a sync that has little to read, so a search sees the newest sessions", async () => {
		const { opened } = await agent();
		const reply = JSON.parse((await runSessionSearch(opened, { query: "amqplib" })).text);
		expect(reply.indexing).toBeUndefined();
		expect(reply.results[0].sessionId).toBe(SAMPLE.branched);
		expect(opened.indexer.lastReport).toMatchObject({ added: 10 });
	});
});

describe("session_search over every agent", () => {
	it("finds a Claude Code session beside Pi's by default, names its agent and command, and filters by agent", async () => {
		const agentDir = join(tempDir("agent"), "agent");
		mkdirSync(agentDir, { recursive: true });
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		const claude = join(tempDir("claude"), ".claude");
		cpSync(join(FIXTURES, "..", "claude"), claude, { recursive: true });
		const opened = hostIndex({ agentDir, env: { HOME: join(agentDir, "home"), CLAUDE_CONFIG_DIR: claude } });
		const { reply } = await call(opened, { query: "narwhal" });
		expect(reply.results[0]).toMatchObject({
			agent: "claude",
			resumeHint: expect.stringMatching(/^cd \/home\/user\/zebra-app && claude -r /),
		});
		expect((await call(opened, { query: "narwhal", agent: "pi" })).reply.results).toEqual([]);
		const pi = (await call(opened, { query: "retry", agent: "pi" })).reply.results;
		expect(pi.length).toBeGreaterThan(0);
		expect(pi.every((h: { agent: string }) => h.agent === "pi")).toBe(true);
		const browse = (await call(opened, { agent: "claude" })).reply;
		expect(JSON.stringify(browse)).toContain("zebra-app");
		expect(JSON.stringify(browse)).not.toContain('"agent":"pi"');
	});
});

describe("the overlay's resume of another agent's session", () => {
	it("copies the command that resumes it instead of switching Pi to a file Pi cannot read", async () => {
		const { opened } = await agent();
		const notes: string[] = [];
		let switched = false;
		const ctx = {
			ui: { notify: (text: string) => notes.push(text), setEditorText: () => {}, getEditorText: () => "" },
			switchSession: async () => {
				switched = true;
			},
			newSession: async () => {},
		};
		const row = {
			sessionId: "803bb4c1",
			path: "/x/803bb4c1.jsonl",
			title: "zebra",
			project: "zebra-app",
			snippet: "",
			resumeHint: "cd /home/user/zebra-app && claude -r 803bb4c1",
			agent: "claude" as const,
		};
		await runAction(await opened.open(), { kind: "resume", row }, ctx as unknown as Parameters<typeof runAction>[2]);
		expect(switched).toBe(false);
		expect(notes.join("\n")).toContain("cd /home/user/zebra-app && claude -r 803bb4c1");
		expect(notes.join("\n")).toContain("a claude session opens in claude");
	});
});

describe("session_search inside one session", () => {
	it("sessionId + query lists that session's matches in order; offset pages", async () => {
		const { opened } = await agent();
		const { reply, run } = await call(opened, { sessionId: SAMPLE.branched, query: "RabbitMQ" });
		expect(run.details.mode).toBe("in-session");
		expect(reply.matches.map((m: { entryId: string }) => m.entryId)).toEqual(["2485ebf5", "cd905b67"]);
		expect(reply.matches[0].branchState).toBe("abandoned");
		const second = (await call(opened, { sessionId: SAMPLE.branched, query: "RabbitMQ", limit: 1, offset: 1 })).reply;
		expect(second.matches.map((m: { entryId: string }) => m.entryId)).toEqual(["cd905b67"]);
		expect(second.next).toBeUndefined();
	});
});
