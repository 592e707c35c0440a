/**
 * Usage in the index, on Pi's and omp's sessions: sums against totals computed by hand from the sample files
 * (test/fixtures/sessions, written by scripts/make-samples.mjs with Pi's own costs), a fork's copied messages
 * counted once, groupings and filters, growth, malformed usage, estimated prices and their marks.
 */

import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { browseReply, type Database, LookbackIndex, memoryStorage, PRICE_SOURCE, pricesLabel, storeAction } from "../../src/core/index.js";
import { syncIndex } from "../../src/core/sync/index.js";
import { summaryLines } from "../../src/extension/summary-lines.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { openNodeIndex } from "../../src/node/open.js";
import { copyFixtures, indexOf, SAMPLE, tempDir } from "../helpers.js";
import { ompStore } from "../omp/omp-store.js";

/**
 * The sample sessions' assistant messages summed by hand (a Python one-liner over the files: each message's
 * `usage`, a message copied into the fork — same entry id and timestamp — once): 61 messages in 10 sessions.
 */
const PI_TOTAL = {
	sessions: 10,
	messages: 61,
	input: 31_314,
	output: 6_918,
	cacheRead: 244_234,
	cacheWrite: 42_381,
	tokens: 324_847,
	costUsd: 0.419113,
	estimatedUsd: 0,
	unpricedMessages: 0,
	toolCalls: 44,
};

function file(root: string, id: string): string {
	for (const dir of readdirSync(root)) for (const f of readdirSync(join(root, dir))) if (f.includes(id)) return join(root, dir, f);
	throw new Error(`no fixture ${id}`);
}

const line = (o: object) => `${JSON.stringify(o)}\n`;

const TOKENS = { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100, cost: { total: 0.0045 } };

/** The database with every statement it is given counted (`run`, `exec`, `prepare`; a prepared statement's reuse is not). */
function countingStatements(db: Database): { db: Database; statements: () => number } {
	let n = 0;
	const counted = new Proxy(db, {
		get(target, name) {
			const value = Reflect.get(target, name, target);
			if (typeof value !== "function") return value;
			if (name !== "run" && name !== "exec" && name !== "prepare") return value.bind(target);
			return (...args: unknown[]) => {
				n++;
				return value.apply(target, args);
			};
		},
	});
	return { db: counted, statements: () => n };
}

/** A Pi session file of one prompt and the answers given, each `{usage, model?, provider?, content?}`. */
function piSession(root: string, id: string, answers: Record<string, unknown>[], day = "2026-11-25"): string {
	const dir = join(root, "--home-dev-projects-meter--");
	const path = join(dir, `${day}T10-00-00-000Z_${id}.jsonl`);
	let text =
		line({ type: "session", version: 3, id, timestamp: `${day}T10:00:00.000Z`, cwd: "/home/dev/projects/meter" }) +
		line({
			type: "message",
			id: "u0000001",
			parentId: null,
			timestamp: `${day}T10:00:01.000Z`,
			message: { role: "user", content: [{ type: "text", text: "count the meter" }], timestamp: 0 },
		});
	answers.forEach((a, i) => {
		text += line({
			type: "message",
			id: `a000000${i}`,
			parentId: i === 0 ? "u0000001" : `a000000${i - 1}`,
			timestamp: `${day}T10:0${i + 1}:00.000Z`,
			message: {
				role: "assistant",
				content: [{ type: "text", text: `answer ${i}` }],
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				...a,
			},
		});
	});
	mkdirSync(dir, { recursive: true });
	writeFileSync(path, text);
	return path;
}

describe("usage of Pi's sessions", () => {
	it("sums every message's tokens and recorded cost, a fork's copied messages once", async () => {
		const { index } = await indexOf();
		const report = index.usage({ by: "session" });
		expect(report.total).toEqual(PI_TOTAL);
		// The fork copied 5 of the linear session's messages: they count there, the fork adds its 4 own.
		const fork = report.rows.find((r) => r.key === SAMPLE.fork);
		const linear = report.rows.find((r) => r.key === SAMPLE.linear);
		expect(fork?.messages).toBe(4);
		expect(linear?.messages).toBe(7);
		const forkView = index.read(SAMPLE.fork, { usage: true });
		expect(forkView.usage?.copiedMessages).toBe(5);
		expect(forkView.usage?.messages).toBe(4);
		// Sessions are listed by cost, and their costs add up to the total.
		expect(report.rows.map((r) => r.costUsd)).toEqual([...report.rows.map((r) => r.costUsd)].sort((a, b) => b - a));
		expect(report.rows.reduce((n, r) => n + r.costUsd, 0)).toBeCloseTo(PI_TOTAL.costUsd, 5);
		index.close();
	});

	it("leaves out a file with no session id whether or not it reads the sessions for the filter", async () => {
		const { index } = await indexOf();
		const linear = index.usage({ by: "session" }).rows.find((r) => r.key === SAMPLE.linear)!;
		// No session lacks an id: the sums are read from the hours alone, and are the hand totals.
		expect(index.usage({ by: "day", utc: true }).total).toEqual(PI_TOTAL);
		index.db.run("UPDATE sessions SET session_id = NULL WHERE session_id = ?", [SAMPLE.linear]);
		for (const by of ["day", "model", "session", "project"] as const) {
			const { total } = index.usage({ by, utc: true });
			expect(total.messages).toBe(PI_TOTAL.messages - linear.messages);
			expect(total.sessions).toBe(PI_TOTAL.sessions - 1);
			expect(total.costUsd).toBeCloseTo(PI_TOTAL.costUsd - linear.costUsd, 5);
		}
		index.close();
	});

	it("groups by model, agent, project, day, week and month, each summing to the total", async () => {
		const { index } = await indexOf();
		const byModel = index.usage({ by: "model" });
		// Hand sums per model: 48 answers of claude-sonnet-4-5, 10 of the v1/v2 files' claude-sonnet-4-20250514, 3 of gpt-5.1-codex.
		expect(byModel.rows.map((r) => [r.key, r.provider, r.messages, r.costUsd])).toEqual([
			["claude-sonnet-4-5", "anthropic", 48, 0.309599],
			["claude-sonnet-4-20250514", "anthropic", 10, 0.105621],
			["gpt-5.1-codex", "openai", 3, 0.003893],
		]);
		for (const by of ["model", "agent", "project", "day", "week", "month"] as const) {
			const r = index.usage({ by, utc: true });
			expect(r.total).toEqual(PI_TOTAL);
			expect(r.rows.reduce((n, x) => n + x.tokens, 0)).toBe(PI_TOTAL.tokens);
			expect(r.rows.reduce((n, x) => n + x.messages, 0)).toBe(PI_TOTAL.messages);
		}
		expect(index.usage({ by: "agent" }).rows.map((r) => r.key)).toEqual(["pi"]);
		expect(index.usage({ by: "month", utc: true }).rows.map((r) => r.key)).toEqual(["2026-10", "2026-11"]);
		// Weeks by their Monday: the 2026-10-01 session (a Thursday) falls in the week of 2026-09-28.
		expect(index.usage({ by: "week", utc: true }).rows[0].key).toBe("2026-09-28");
		const days = index.usage({ by: "day", utc: true }).rows;
		expect(days[0]).toMatchObject({ key: "2026-10-01", sessions: 1, messages: 7, input: 20_902, output: 526, costUsd: 0.070596 });
		// The branched session spans two days: a session on each, once in the total.
		expect(days.filter((d) => d.key === "2026-10-09" || d.key === "2026-10-10").map((d) => d.sessions)).toEqual([1, 1]);
		const projects = index.usage({ by: "project" }).rows;
		expect(projects.map((p) => p.key).sort()).toEqual(["devnotes", "inventory-api", "legacy-cli", "webshop"]);
		index.close();
	});

	it("filters by time, project and agent as search does", async () => {
		const { index } = await indexOf();
		const november = index.usage({ since: "2026-11-01", until: "2026-11-30", utc: true });
		// Hand sums of the three November sessions (compaction, decision, cliDates).
		expect(november.total).toMatchObject({ sessions: 3, messages: 17, costUsd: 0.097388 });
		expect(index.usage({ project: "webshop" }).total).toMatchObject({ sessions: 3, messages: 21 });
		expect(index.usage({ agent: "claude" }).total).toMatchObject({ sessions: 0, messages: 0, costUsd: 0 });
		expect(
			index
				.usage({ project: "inventory-api", by: "session" })
				.rows.map((r) => r.key)
				.sort(),
		).toEqual([SAMPLE.bash, SAMPLE.chinese, SAMPLE.compaction].sort());
		index.close();
	});

	it("counts a grown file's new messages, and a fork's copies again once its parent is gone", async () => {
		const root = copyFixtures();
		const { index, source } = await indexOf(root);
		const linear = file(root, SAMPLE.linear);
		appendFileSync(
			linear,
			line({
				type: "message",
				id: "feedbee1",
				parentId: null,
				timestamp: "2026-10-03T09:00:00.000Z",
				message: {
					role: "assistant",
					content: [{ type: "toolCall", id: "c1", name: "write", arguments: { path: "src/payments/jitter.ts", content: "x" } }],
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150, cost: { total: 0.01 } },
				},
			}),
		);
		const grown = await index.sync(source);
		expect(grown.grown).toBe(1);
		const after = index.usage().total;
		expect(after).toMatchObject({ messages: 62, input: 31_414, output: 6_968, toolCalls: 45 });
		expect(after.costUsd).toBeCloseTo(PI_TOTAL.costUsd + 0.01, 6);
		expect(index.read(SAMPLE.linear, { usage: true }).usage?.files.map((f) => f.path)).toContain("src/payments/jitter.ts");
		// The parent removed: the fork's five copied messages now count in the fork.
		rmSync(linear);
		await index.sync(source);
		const forkNow = index.usage({ by: "session" }).rows.find((r) => r.key === SAMPLE.fork);
		expect(forkNow?.messages).toBe(9);
		index.close();
	});

	it("weighs a message many sessions hold against its one counted copy: the statements a sync runs grow with its files", async () => {
		// Sessions that all hold one answer (same id and time: forks of one session, or bench/sync-many.mjs's small
		// sessions). Counting each new holder used to count every holder again: 30 sessions ran 3,084 statements, 60 ran 11,544 (now 416 and 806).
		const statements = async (sessions: number) => {
			const root = join(tempDir("holders"), "sessions");
			for (let n = 0; n < sessions; n++)
				piSession(root, `0000${String(n).padStart(4, "0")}-0000-7000-8000-000000000000`, [{ usage: TOKENS }]);
			const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
			const counted = countingStatements(index.db);
			const report = await syncIndex(counted.db, fileSource([{ path: root, layout: "nested", agent: "pi" }]));
			expect(report.added).toBe(sessions);
			expect(index.usage().total).toMatchObject({ sessions: 1, messages: 1, input: 1000 });
			index.close();
			return counted.statements();
		};
		const few = await statements(30);
		const many = await statements(60);
		expect(many).toBeLessThan(2.2 * few);
	});

	it("names tool calls by tool with their errors, and the files they edited", async () => {
		const { index } = await indexOf();
		const fork = index.read(SAMPLE.fork, { usage: true }).usage!;
		// The fork's own answers: one failing bash run (isError) among its bash calls.
		expect(fork.tools.find((t) => t.tool === "bash")).toEqual({ tool: "bash", calls: 2, errors: 1 });
		expect(fork.files.map((f) => f.path).sort()).toEqual(["src/payments/retryPolicy.ts", "src/payments/webhookClient.ts"]);
		const dashboard = index.dashboard({ utc: true });
		expect(dashboard.tools.calls).toBe(PI_TOTAL.toolCalls);
		expect(dashboard.tools.errors).toBe(1);
		index.close();
	});

	it("lists each session's cost beside it, and stats name the whole", async () => {
		const { index } = await indexOf();
		const listed = index.browse({ limit: 100 });
		expect(listed.find((s) => s.sessionId === SAMPLE.v1)?.usage).toEqual({ tokens: 21_428, costUsd: 0.070596 });
		expect(index.stats().usage).toEqual({ tokens: PI_TOTAL.tokens, costUsd: PI_TOTAL.costUsd, estimatedUsd: 0, unpricedMessages: 0 });
		// The Pi tool's list modes (browse, and the store's list, which the MCP list tool shares) name it too.
		const browsed = browseReply(index, { limit: 20 });
		expect(browsed.sessions.find((s) => s.sessionId === SAMPLE.v1)?.usage).toEqual({ tokens: 21_428, costUsd: 0.070596 });
		const listed2 = storeAction(index, "list", { limit: 20 });
		expect(listed2.results.find((r) => r.sessionId === SAMPLE.v1)?.usage?.costUsd).toBe(0.070596);
		expect(summaryLines(browsed).find((l) => l.includes("Changelog for 2.3.0"))).toMatch(/ · \$0\.04$/);
		index.close();
	});
});

describe("usage without a recorded cost", () => {
	it("prices tokens from Pi's model registry and marks the cost estimated", async () => {
		const root = join(tempDir("meter"), "sessions");
		// claude-sonnet-4-5 at $3 / $15 / $0.30 / $3.75 per million tokens in Pi 1.6.0's registry.
		piSession(root, "01a40000-0000-7000-8000-000000000001", [
			{ usage: { input: 1_000, output: 2_000, cacheRead: 10_000, cacheWrite: 4_000 } },
			{ model: "claude-sonnet-4-5-20250929", usage: { input: 1_000, output: 0, cacheRead: 0, cacheWrite: 0 } },
			{ model: "nobody-knows-this-model", provider: "nowhere", usage: { input: 500, output: 500 } },
		]);
		const { index } = await indexOf(root);
		const t = index.usage().total;
		// 1000×3 + 2000×15 + 10000×0.3 + 4000×3.75 = 51,000 µ$; the dated id is the same model: 1000×3 = 3,000 µ$.
		expect(t).toMatchObject({ messages: 3, costUsd: 0.054, estimatedUsd: 0.054, unpricedMessages: 1, tokens: 19_000 });
		expect(index.browse()[0].usage).toEqual({ tokens: 19_000, costUsd: 0.054, estimated: true, partial: true });
		// The reader's rows by model say the same of each model.
		expect(
			index
				.read("01a40000-0000-7000-8000-000000000001", { usage: true })
				.usage?.models.map((m) => [m.model, m.estimatedUsd, m.unpricedMessages]),
		).toEqual([
			["claude-sonnet-4-5", 0.051, 0],
			["claude-sonnet-4-5-20250929", 0.003, 0],
			["nobody-knows-this-model", 0, 1],
		]);
		index.close();
	});

	it("counts a message with malformed usage without the malformed fields", async () => {
		const root = join(tempDir("meter"), "sessions");
		piSession(root, "01a40000-0000-7000-8000-000000000002", [
			{ usage: { input: "1200", output: -5, cacheRead: Number.NaN, cacheWrite: 7, cost: { total: "a lot" } } },
			{ usage: "a few tokens" },
			{ usage: { input: 10, output: 20, cost: { total: 0.5 } } },
			{ model: 42, usage: { input: Number.POSITIVE_INFINITY, output: 3 } },
		]);
		const { index, report } = await indexOf(root);
		expect(report.malformedLines).toBe(0);
		const t = index.usage().total;
		// Kept: cacheWrite 7 (priced at $3.75/M: an estimate), 10 + 20 at the recorded $0.50, output 3 of the last (the
		// session's last model, priced: $15/M). Not kept: the string, the negative, NaN, Infinity, the cost "a lot".
		expect(t).toMatchObject({ messages: 4, input: 10, output: 23, cacheRead: 0, cacheWrite: 7, tokens: 40 });
		expect(t.costUsd).toBeCloseTo(0.5 + (7 * 3.75 + 3 * 15) / 1e6, 6);
		expect(t.estimatedUsd).toBeCloseTo((7 * 3.75 + 3 * 15) / 1e6, 6);
		index.close();
	});

	it("prices again what was estimated when the price table changed", async () => {
		const dir = tempDir("reprice");
		const root = join(dir, "sessions");
		piSession(root, "01a40000-0000-7000-8000-000000000003", [{ usage: { input: 1_000_000, output: 0 } }]);
		const indexPath = join(dir, "index.db");
		const open = () => openNodeIndex({ indexPath, sessionsDirs: [root], onlySessionsDirs: true, env: {} });
		let opened = await open();
		await opened.index.sync(opened.source);
		// A million tokens of input: above 200k, the whole request at Sonnet's long-context rate ($6, twice $3).
		expect(opened.index.usage().total.costUsd).toBe(6);
		// An index written by a lookback with other prices: its estimates are stale.
		opened.index.db.run("UPDATE usage SET cost = 99 WHERE estimated = 1");
		opened.index.db.run("UPDATE usage_hours SET cost = 99, estimated = 99");
		opened.index.db.run("UPDATE meta SET value = 'an older table' WHERE key = 'prices'");
		opened.index.close();
		opened = await open();
		await opened.index.sync(opened.source);
		expect(opened.index.usage().total).toMatchObject({ costUsd: 6, estimatedUsd: 6 });
		expect(opened.index.db.exec("SELECT value FROM meta WHERE key = 'prices'")[0].values[0][0]).toBe(PRICE_SOURCE);
		opened.index.close();
	});
});

describe("usage of omp's sessions", () => {
	it("sums the usage omp records on its answers", async () => {
		const store = ompStore();
		const opened = await openNodeIndex({
			agentDir: join(store.home, ".pi", "agent"),
			indexPath: join(store.home, "index.db"),
			env: { HOME: store.home },
		});
		await opened.index.sync(opened.source);
		const report = opened.index.usage({ by: "agent" });
		expect(report.rows).toEqual([
			expect.objectContaining({ key: "omp", messages: 1, input: 1200, output: 80, cacheRead: 3000, cacheWrite: 400, costUsd: 0.0072 }),
		]);
		opened.index.close();
	});
});

describe("lookback usage", () => {
	const io = () => {
		let out = "";
		return {
			io: { stdout: (t: string) => (out += t), stderr: () => undefined, env: {}, isTTY: false },
			out: () => out,
		};
	};

	it("prints a table with a totals row, estimates marked, and a documented JSON shape", async () => {
		const dir = tempDir("usage-cli");
		const root = join(dir, "sessions");
		piSession(root, "01a40000-0000-7000-8000-000000000004", [{ usage: { input: 1_000, output: 100 } }]);
		const base = ["--index", join(dir, "index.db"), "--sessions-dir", root, "--only-sessions-dir"];
		const human = io();
		expect(await run(["usage", "--by", "model", ...base], human.io)).toBe(0);
		const lines = human.out().split("\n");
		expect(lines[0]).toMatch(/^model\s+sessions\s+messages\s+input\s+output\s+cache read\s+cache write\s+tokens\s+tool calls\s+cost$/);
		expect(lines.find((l) => l.startsWith("claude-sonnet-4-5 (anthropic)"))).toMatch(
			/1\s+1\s+1,000\s+100\s+0\s+0\s+1,100\s+0\s+\$0\.0045\*$/,
		);
		expect(lines.find((l) => l.startsWith("total"))).toMatch(/\$0\.0045\*$/);
		expect(human.out()).toContain(`* includes $0.0045 estimated at list prices (${pricesLabel(PRICE_SOURCE)})`);
		const json = io();
		expect(await run(["usage", "--by", "day", "--utc", "--json", ...base], json.io)).toBe(0);
		const parsed = JSON.parse(json.out());
		expect(parsed).toMatchObject({ command: "usage", by: "day", utc: true, prices: PRICE_SOURCE });
		expect(parsed.rows).toEqual([
			{
				key: "2026-11-25",
				sessions: 1,
				messages: 1,
				input: 1000,
				output: 100,
				cacheRead: 0,
				cacheWrite: 0,
				tokens: 1100,
				costUsd: 0.0045,
				estimatedUsd: 0.0045,
				unpricedMessages: 0,
				toolCalls: 0,
			},
		]);
		let refused = "";
		expect(await run(["usage", "--by", "hour", ...base], { ...io().io, stderr: (t: string) => (refused += t) })).toBe(2);
		expect(refused).toBe('lookback: --by must be one of day, week, month, project, model, agent, session, block, not "hour"\n');
		const stats = io();
		expect(await run(["stats", ...base], stats.io)).toBe(0);
		expect(stats.out()).toMatch(/usage {7}\$0\.0045 over 1,100 tokens; \$0\.0045 of it estimated from list prices/);
	});

	it("counts tool calls and their errors in the hour of the answer that made them: the dashboard's and toolCalls agree under --since", async () => {
		const dir = tempDir("usage-tools");
		const root = join(dir, "sessions", "--home-dev-projects-meter--");
		mkdirSync(root, { recursive: true });
		const id = "01a40000-0000-7000-8000-000000000005";
		const answer = (n: string, parent: string, at: string, calls: string[]) =>
			line({
				type: "message",
				id: n,
				parentId: parent,
				timestamp: at,
				message: {
					role: "assistant",
					content: calls.map((name, i) => ({ type: "toolCall", id: `${n}-${i}`, name, arguments: {} })),
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					usage: TOKENS,
				},
			});
		const result = (n: string, parent: string, at: string, tool: string, isError: boolean) =>
			line({
				type: "message",
				id: n,
				parentId: parent,
				timestamp: at,
				message: { role: "toolResult", toolCallId: `${parent}-0`, toolName: tool, content: [{ type: "text", text: "out" }], isError },
			});
		// One session over two days: a failed bash call on the first, two reads on the second.
		writeFileSync(
			join(root, `2026-11-25T10-00-00-000Z_${id}.jsonl`),
			line({ type: "session", version: 3, id, timestamp: "2026-11-25T10:00:00.000Z", cwd: "/home/dev/projects/meter" }) +
				line({
					type: "message",
					id: "u0000001",
					parentId: null,
					timestamp: "2026-11-25T10:00:01.000Z",
					message: { role: "user", content: [{ type: "text", text: "look around" }], timestamp: 0 },
				}) +
				answer("a0000001", "u0000001", "2026-11-25T10:01:00.000Z", ["bash"]) +
				result("r0000001", "a0000001", "2026-11-25T10:01:05.000Z", "bash", true) +
				answer("a0000002", "r0000001", "2026-11-26T09:00:00.000Z", ["read", "read"]) +
				result("r0000002", "a0000002", "2026-11-26T09:00:05.000Z", "read", false),
		);
		const base = ["--index", join(dir, "index.db"), "--sessions-dir", join(dir, "sessions"), "--only-sessions-dir"];
		const toolCalls = async (...filter: string[]) => {
			const out = io();
			expect(await run(["usage", "--json", ...filter, ...base], out.io)).toBe(0);
			return JSON.parse(out.out()).total.toolCalls as number;
		};
		const since = "2026-11-26T00:00:00Z";
		expect([await toolCalls(), await toolCalls("--since", since), await toolCalls("--until", since)]).toEqual([3, 2, 1]);
		const opened = await openNodeIndex({
			indexPath: join(dir, "index.db"),
			sessionsDirs: [join(dir, "sessions")],
			onlySessionsDirs: true,
			env: {},
		});
		const tools = (filter: { since?: string; until?: string }) => opened.index.dashboard(filter).tools;
		expect(tools({})).toMatchObject({ calls: 3, errors: 1 });
		// The session began before the bound: its first day's call and error are not the second day's.
		expect(tools({ since })).toEqual({ calls: 2, errors: 0, byTool: [{ tool: "read", calls: 2, errors: 0 }] });
		expect(tools({ until: since })).toEqual({ calls: 1, errors: 1, byTool: [{ tool: "bash", calls: 1, errors: 1 }] });
		// The reader's histogram is the whole session's.
		expect(opened.index.read(id, { usage: true }).usage?.tools).toEqual([
			{ tool: "read", calls: 2, errors: 0 },
			{ tool: "bash", calls: 1, errors: 1 },
		]);
		opened.index.close();
	});
});
