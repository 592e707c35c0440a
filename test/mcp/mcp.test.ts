/**
 * `lookback mcp` as an MCP client sees it: the SDK's own Client over stdio against the built dist/cli.js, on the
 * sample sessions. Every reply is checked for what it found, not only that it answered.
 */

import { spawn } from "node:child_process";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_KINDS, BRANCH_STATES, DEFAULTS, ROLES } from "../../src/core/index.js";
import { SessionWatch } from "../../src/node/session-watch.js";
import { SAMPLE, tempDir } from "../helpers.js";
import { agentDir, CLI, call, json, type Server, startServer, untilReady } from "./mcp-client.js";
import { writeSession } from "./session-file.js";

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) await s.close();
});

async function server(dir: string, options: { cwd?: string; extraArgs?: string[] } = {}): Promise<Server> {
	const s = await startServer(dir, options);
	servers.push(s);
	return s;
}

type Hit = { sessionId: string; entryId: string; agent: string; context?: { window: { entryId: string; text: string }[] } };
type Message = { entryId: string; text: string; textTruncated?: boolean };

describe("lookback mcp", () => {
	it("lists its four tools with their schemas, enums from the core's lists", async () => {
		const s = await server(agentDir());
		const { tools } = await s.client.listTools();
		expect(tools.map((t) => t.name)).toEqual(["search_sessions", "read_session", "list_sessions", "index_status"]);
		const byName = new Map(tools.map((t) => [t.name, t]));
		const search = byName.get("search_sessions")!;
		expect(search.inputSchema.required).toEqual(["query"]);
		const props = search.inputSchema.properties as Record<string, { enum?: string[]; maximum?: number }>;
		expect(props.agent.enum).toEqual([...AGENT_KINDS]);
		expect(props.role.enum).toEqual([...ROLES]);
		expect(props.branch.enum).toEqual([...BRANCH_STATES]);
		expect(props.limit.maximum).toBe(DEFAULTS.replyMaxSessions);
		expect(Object.keys(props)).toEqual(
			expect.arrayContaining(["query", "project", "agent", "since", "until", "role", "branch", "limit", "includeCallingSession"]),
		);
		expect(byName.get("read_session")!.inputSchema.required).toEqual(["sessionId"]);
		for (const t of tools) {
			expect(t.inputSchema.additionalProperties).toBe(false);
			expect(t.annotations?.readOnlyHint).toBe(true);
		}
		expect(search.description).toContain("contentTruncated");
		expect(s.client.getInstructions()).toContain("search_sessions");
	});

	it("finds the right session, with the messages around the hit, as text and structuredContent alike", async () => {
		const s = await server(agentDir());
		const found = await call(s, "search_sessions", { query: "RabbitMQ dead-letter" });
		const reply = json(found);
		expect(found.value).toEqual(reply);
		const results = reply.results as Hit[];
		expect(results[0].sessionId).toBe(SAMPLE.branched);
		expect(results[0].context?.window.some((m) => /rabbitmq/i.test(m.text))).toBe(true);
		// Filters reach the search: no omp sessions here, and a project that holds no RabbitMQ session.
		expect((json(await call(s, "search_sessions", { query: "RabbitMQ", agent: "omp" })).results as Hit[]).length).toBe(0);
		const none = json(await call(s, "search_sessions", { query: "RabbitMQ", project: "legacy-cli" }));
		expect((none.results as Hit[]).length).toBe(0);
		// An empty reply says why, and what to try.
		expect(none.why).toMatchObject({ hiddenBy: [{ filter: "project", value: "legacy-cli", sessions: 1 }] });
		expect(none.notice).toBe("nothing found: project legacy-cli hid 1 session that matches");
		const asked = json(await call(s, "search_sessions", { query: "can you find the RabbitMQ dead-letter session?" }));
		expect(asked).toMatchObject({ reading: "question", wordsLeftOut: ["can", "you", "find", "the", "session"] });
		expect((asked.results as Hit[])[0].sessionId).toBe(SAMPLE.branched);
		const chinese = json(await call(s, "search_sessions", { query: "死锁" })).results as Hit[];
		expect(chinese[0].sessionId).toBe(SAMPLE.chinese);
	});

	it("takes the agent's other phrasings, and searches inside one session page by page", async () => {
		const s = await server(agentDir());
		const { tools } = await s.client.listTools();
		const props = tools.find((t) => t.name === "search_sessions")!.inputSchema.properties as Record<string, { maxItems?: number }>;
		expect(props.queryVariants.maxItems).toBe(DEFAULTS.maxQueryVariants);
		// Only the variant names the session: the Spanish query alone finds nothing.
		expect((json(await call(s, "search_sessions", { query: "cola de mensajes replicada" })).results as Hit[]).length).toBe(0);
		const fused = json(await call(s, "search_sessions", { query: "cola de mensajes replicada", queryVariants: ["RabbitMQ"] }));
		const first = (fused.results as (Hit & { foundBy?: string[] })[])[0];
		expect(first.sessionId).toBe(SAMPLE.branched);
		expect(first.foundBy).toEqual(["RabbitMQ"]);
		expect(fused.variants).toEqual(["RabbitMQ"]);

		type InSession = { mode: string; total: number; next?: number; matches: { entryId: string; branchState: string; snippet: string }[] };
		const whole = json(await call(s, "search_sessions", { query: "queue", sessionId: SAMPLE.branched, limit: 50 })) as InSession;
		expect(whole.mode).toBe("in-session");
		expect(whole.total).toBe(whole.matches.length);
		expect(new Set(whole.matches.map((m) => m.branchState))).toEqual(new Set(["active", "abandoned"]));
		const paged: string[] = [];
		for (let offset: number | undefined = 0, calls = 0; offset !== undefined && calls < 20; calls++) {
			const page = json(await call(s, "search_sessions", { query: "queue", sessionId: SAMPLE.branched, limit: 2, offset })) as InSession;
			paged.push(...page.matches.map((m) => m.entryId));
			offset = page.next;
		}
		expect(paged).toEqual(whole.matches.map((m) => m.entryId));
		for (const [args, reason] of [
			[{ query: "queue", sessionId: SAMPLE.branched, project: "x" }, /project goes with a search over sessions/],
			[{ query: "queue", sessionId: SAMPLE.branched, queryVariants: ["a"] }, /queryVariants goes with a search over sessions/],
			[{ query: "queue", offset: 2 }, /offset goes with sessionId/],
			[{ query: "queue", queryVariants: "RabbitMQ" }, /queryVariants must be a list of strings/],
			[{ query: "queue", queryVariants: ["a", "b", "c", "d"] }, /queryVariants holds at most 3/],
			[{ query: "queue", sessionId: "no-such-session" }, /no indexed session/],
		] as const) {
			const r = await call(s, "search_sessions", args);
			expect(r.isError, `${JSON.stringify(args)} → ${r.text}`).toBe(true);
			expect(r.text).toMatch(reason);
		}
	});

	it("reads a session whole, around an entry, and page by page", async () => {
		const s = await server(agentDir());
		const whole = json(await call(s, "read_session", { sessionId: SAMPLE.bash }));
		const all = (whole.messages as Message[]).map((m) => m.entryId);
		expect(whole.mode).toBe("read");
		expect(all.length).toBe(whole.total);
		expect(all.length).toBeGreaterThan(6);

		const pages: string[] = [];
		let offset: number | undefined = 0;
		let calls = 0;
		while (offset !== undefined && calls++ < 20) {
			const page = json(await call(s, "read_session", { sessionId: SAMPLE.bash.slice(0, 8), offset, limit: 4 }));
			expect(page.offset).toBe(offset);
			pages.push(...(page.messages as Message[]).map((m) => m.entryId));
			offset = page.nextOffset as number | undefined;
		}
		expect(pages).toEqual(all);

		const middle = all[Math.floor(all.length / 2)];
		const around = json(await call(s, "read_session", { sessionId: SAMPLE.bash, aroundMessageId: middle, window: 1 }));
		expect(around.mode).toBe("scroll");
		expect((around.messages as Message[]).map((m) => m.entryId)).toEqual(all.slice(all.indexOf(middle) - 1, all.indexOf(middle) + 2));
	});

	it("lists recent sessions and says where the index stands", async () => {
		const s = await server(agentDir());
		const list = json(await call(s, "list_sessions", { limit: 3, project: "inventory-api" }));
		const ids = (list.sessions as { sessionId: string }[]).map((x) => x.sessionId);
		expect(ids).toEqual([SAMPLE.compaction, SAMPLE.chinese, SAMPLE.bash]);
		const status = json(await call(s, "index_status"));
		expect(status).toMatchObject({ state: "ready", sessions: 10 });
		expect(String(status.indexPath)).toMatch(/lookback\/index\.db$/);
	});

	it("indexes in the background after the handshake, on its own thread, with progress in the status", async () => {
		const s = await server(agentDir());
		const seen: string[] = [];
		let status: Record<string, unknown> = {};
		// No search is made: the first index starts by itself once the client has initialized.
		for (let i = 0; i < 600 && status.state !== "ready"; i++) {
			status = json(await call(s, "index_status"));
			seen.push(String(status.state));
			if (status.state === "indexing") {
				const p = status.indexing as { done: number; total: number };
				expect(p.done).toBeLessThanOrEqual(p.total);
			}
			if (status.state !== "ready") await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(status).toMatchObject({ state: "ready", sessions: 10, indexer: "child process" });
		expect(seen.every((state) => ["not-opened", "opening", "indexing", "ready"].includes(state))).toBe(true);
	});

	it("answers bad input with a one-line tool error and goes on serving", async () => {
		const dir = agentDir();
		const s = await server(dir);
		const cases: [string, Record<string, unknown>, RegExp][] = [
			["search_sessions", {}, /query is required/],
			["search_sessions", { query: "   " }, /query is empty/],
			["search_sessions", { query: 42 }, /query must be a string/],
			["search_sessions", { query: "x", limit: 0 }, /limit must be an integer from 1 to 50/],
			["search_sessions", { query: "x", limit: 2.5 }, /limit must be an integer/],
			["search_sessions", { query: "x", agent: "vim" }, /agent must be one of pi, omp, claude/],
			["search_sessions", { query: "x", since: "yesterday-ish" }, /since|time/],
			["search_sessions", { query: "x", sql: "DROP TABLE" }, /unknown argument "sql"/],
			["search_sessions", { query: "NOT" }, /./],
			["read_session", { sessionId: "no-such-session" }, /no indexed session/],
			["read_session", { sessionId: "/etc/passwd.jsonl" }, /refusing/],
			["read_session", { sessionId: SAMPLE.bash, aroundMessageId: "no-such-entry" }, /no entry/],
			["read_session", { sessionId: SAMPLE.bash, aroundMessageId: "x", offset: 0 }, /not both/],
			["read_session", { sessionId: SAMPLE.bash, offset: -1 }, /offset must be an integer/],
			["list_sessions", { limit: "ten" }, /limit must be an integer/],
			["index_status", { verbose: true }, /unknown argument "verbose"/],
			["drop_index", {}, /unknown tool "drop_index"/],
		];
		for (const [name, args, reason] of cases) {
			const r = await call(s, name, args);
			if (name === "search_sessions" && args.query === "NOT") {
				// A query of a lone operator either runs as a word or is refused with a reason: never a crash.
				if (!r.isError) expect(json(r).mode).toBe("discovery");
				else expect(r.text).toMatch(/^lookback: [^\n]+$/);
				continue;
			}
			expect(r.isError, `${name} ${JSON.stringify(args)} → ${r.text}`).toBe(true);
			expect(r.text).toMatch(/^lookback: [^\n]+$/);
			expect(r.text).toMatch(reason);
		}
		// Hostile queries: quotes, brackets, FTS5 syntax and a very long one answer without crashing the server.
		for (const query of ['"', "(((", 'a" OR "b', "NEAR(x y)", "*", "x".repeat(5000), "col:value ^start"]) {
			const r = await call(s, "search_sessions", { query });
			if (r.isError) expect(r.text).toMatch(/^lookback: [^\n]+$/);
			else expect(json(r).mode).toBe("discovery");
		}
		expect((json(await call(s, "search_sessions", { query: "RabbitMQ" })).results as Hit[])[0].sessionId).toBe(SAMPLE.branched);
	});

	it("leaves out the calling session: a recently changed one of its working directory", async () => {
		const dir = agentDir();
		const cwd = tempDir("project");
		const minuteAgo = new Date(Date.now() - 60_000).toISOString();
		const hourAgo = new Date(Date.now() - 3_600_000);
		const live = writeSession(join(dir, "sessions"), "live-session", cwd, ["the zanzibarquokka migration plan", "noted"], minuteAgo);
		const old = writeSession(
			join(dir, "sessions"),
			"older-session",
			cwd,
			["an earlier zanzibarquokka attempt", "ok"],
			hourAgo.toISOString(),
		);
		utimesSync(old, hourAgo, hourAgo);
		// Written just now, but its messages are days old (a copy, a restore): no session is calling from it.
		const daysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
		writeSession(join(dir, "sessions"), "copied-session", cwd, ["a copied zanzibarquokka note", "ok"], daysAgo);
		const s = await server(dir, { cwd });
		const reply = json(await call(s, "search_sessions", { query: "zanzibarquokka" }));
		expect((reply.results as Hit[]).map((h) => h.sessionId).sort()).toEqual(["copied-session", "older-session"]);
		expect(reply.leftOut).toEqual([{ sessionId: "live-session", path: live }]);
		expect(reply.leftOutReason).toMatch(/includeCallingSession/);
		const all = json(await call(s, "search_sessions", { query: "zanzibarquokka", includeCallingSession: true }));
		expect((all.results as Hit[]).map((h) => h.sessionId).sort()).toEqual(["copied-session", "live-session", "older-session"]);
		expect(all.leftOut).toBeUndefined();
		const list = json(await call(s, "list_sessions", { limit: 50 }));
		expect((list.sessions as { sessionId: string }[]).map((x) => x.sessionId)).not.toContain("live-session");
		expect((list.sessions as { sessionId: string }[]).map((x) => x.sessionId)).toContain("older-session");
		expect(list.total).toBe(12);
	});

	it("sees a session written or grown just before a search, on a server that has searched already", async () => {
		const dir = agentDir();
		const s = await server(dir);
		await untilReady(s);
		expect(json(await call(s, "search_sessions", { query: "pelicanquorum" })).results).toEqual([]);
		const texts = ["the pelicanquorum rollout", "done"];
		writeSession(join(dir, "sessions"), "new-session", "/home/dev/new", texts);
		const added = json(await call(s, "search_sessions", { query: "pelicanquorum" }));
		expect((added.results as Hit[]).map((h) => h.sessionId)).toEqual(["new-session"]);
		// The same file with two more messages: read from where the last sync stopped.
		writeSession(join(dir, "sessions"), "new-session", "/home/dev/new", [...texts, "and the ibisquorum follow-up", "noted"]);
		const grown = json(await call(s, "search_sessions", { query: "ibisquorum" }));
		expect((grown.results as Hit[]).map((h) => h.sessionId)).toEqual(["new-session"]);
		expect(json(await call(s, "index_status")).lastSyncReport).toMatchObject({ grown: 1 });
	});

	it.runIf(SessionWatch.supported())(
		"answers searches without a sync while no session folder changes, and syncs at the next change",
		async () => {
			const dir = agentDir();
			const s = await server(dir);
			await untilReady(s);
			const skipped = async () => (json(await call(s, "index_status")).watch as { syncsSkipped: number }).syncsSkipped;
			for (let i = 0; i < 3; i++) await call(s, "search_sessions", { query: "RabbitMQ" });
			const quiet = await skipped();
			expect(quiet).toBeGreaterThanOrEqual(1);
			writeSession(join(dir, "sessions"), "late-session", "/home/dev/late", ["the kestrelmanifold rollout", "done"]);
			const found = json(await call(s, "search_sessions", { query: "kestrelmanifold" }));
			expect((found.results as Hit[]).map((h) => h.sessionId)).toEqual(["late-session"]);
			expect(await skipped()).toBe(quiet);
		},
	);

	it("keeps a long reply within the budget and marks what it cut", async () => {
		const dir = agentDir();
		const texts = Array.from({ length: 40 }, (_, i) => `message ${i} ${"longwinded ".repeat(300)}`);
		writeSession(join(dir, "sessions"), "long-session", "/home/dev/long", texts);
		const s = await server(dir);
		await untilReady(s);
		const r = await call(s, "read_session", { sessionId: "long-session" });
		expect(r.text.length).toBeLessThanOrEqual(DEFAULTS.replyMaxChars);
		const reply = json(r);
		expect(reply.contentTruncated).toBe(true);
		expect(r.value).toEqual(reply);
		expect((reply.messages as Message[]).some((m) => m.textTruncated)).toBe(true);
		expect(reply.omitted).toMatchObject({ count: 10 });
	});

	it("answers the handshake without opening the index, and says why it cannot open it", async () => {
		const dir = agentDir();
		// An index path under a regular file cannot be created: the server must still start and list its tools.
		const blocker = join(tempDir("blocked"), "file");
		writeFileSync(blocker, "");
		const s = await server(dir, { extraArgs: ["--index", join(blocker, "index.db")] });
		expect((await s.client.listTools()).tools.length).toBe(4);
		const r = await call(s, "search_sessions", { query: "RabbitMQ" });
		expect(r.isError).toBe(true);
		expect(r.text).toMatch(/^lookback: [^\n]+$/);
		expect(json(await call(s, "index_status")).state).toBe("failed");
	});

	it("writes only protocol messages to stdout and exits when stdin closes", async () => {
		const dir = agentDir();
		mkdirSync(join(dir, "x"), { recursive: true });
		const child = spawn(process.execPath, [CLI, "mcp", "--agent-dir", dir], {
			cwd: tempDir("cwd"),
			env: { HOME: "/nonexistent-lookback-home", PATH: process.env.PATH ?? "" },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let out = "";
		let err = "";
		child.stdout.on("data", (c) => (out += c));
		child.stderr.on("data", (c) => (err += c));
		const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
		const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
		send({
			jsonrpc: "2.0",
			id: 1,
			method: "initialize",
			params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
		});
		send({ jsonrpc: "2.0", method: "notifications/initialized" });
		send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_sessions", arguments: { query: "RabbitMQ" } } });
		send({ jsonrpc: "2.0", id: 3, method: "no/such/method" });
		await new Promise<void>((resolve) => {
			const check = () => (out.split("\n").filter(Boolean).length >= 3 ? resolve() : setTimeout(check, 20));
			check();
		});
		child.stdin.end();
		expect(await exited).toBe(0);
		const messages = out
			.split("\n")
			.filter(Boolean)
			.map(
				(line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: { structuredContent?: { results: Hit[] } }; error?: object },
			);
		expect(messages.every((m) => m.jsonrpc === "2.0")).toBe(true);
		expect(messages.find((m) => m.id === 2)?.result?.structuredContent?.results[0].sessionId).toBe(SAMPLE.branched);
		expect(messages.find((m) => m.id === 3)?.error).toBeDefined();
		expect(err).toContain("lookback mcp");
	});
});
