/**
 * Usage read from each other agent's real files (test/fixtures: Claude Code 2.1.332, Codex 0.171.0, Gemini CLI
 * 0.61.0, OpenCode 1.18.33 against fake models), summed against totals counted by hand from the files, with the
 * estimated prices of Pi's registry where the agent recorded no cost (or OpenCode's $0); Codex's usage reports read
 * across a file's growth; and a failed tool call of Claude Code, Gemini CLI and OpenCode (their files with one call
 * made to fail as each agent records a failure) counted against its tool.
 */

import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource, type SessionRoot } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";
import { type AnswerRow, addAnswer, addPart, promptedSession } from "./opencode-rows.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const CODEX_PARENT = "01a2315e-b204-7071-b339-8dc13fe83021";
const CODEX_DAY = join("sessions", "2026", "12", "01");
const CODEX_FILE = `rollout-2026-12-01T11-30-19-${CODEX_PARENT}.jsonl`;

async function indexOver(roots: SessionRoot[]) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	const source = fileSource(roots);
	await index.sync(source);
	return { index, source };
}

describe("usage of the other agents", () => {
	it("Claude Code: each API message's usage once, a fork's copies counted in its parent, priced from the registry", async () => {
		const { index } = await indexOver([{ path: join(FIXTURES, "claude", "projects"), layout: "claude", agent: "claude" }]);
		// By hand: 6 answers in the session, 1 in its sub-agent, the fork's own 1 (its 2 copies of the session's answers
		// not again), each 100 input and 20 output tokens; claude-opus-5-5 at $4 / $20 per million in Pi 1.6.0's registry.
		const t = index.usage().total;
		expect(t).toMatchObject({ sessions: 3, messages: 8, input: 800, output: 160, cacheRead: 0, cacheWrite: 0, unpricedMessages: 0 });
		expect(t.costUsd).toBeCloseTo((800 * 4 + 160 * 20) / 1e6, 9);
		expect(t.estimatedUsd).toBe(t.costUsd);
		const fork = index.read("4bd49a99-3a40-480d-b514-f68ee71f7e23", { usage: true }).usage;
		expect(fork).toMatchObject({ messages: 1, copiedMessages: 2 });
		expect(index.usage({ by: "model" }).rows.map((r) => [r.key, r.provider])).toEqual([["claude-opus-5-5", "anthropic"]]);
		expect(index.read("803bb4c1-76e6-4594-9fb6-45953cf58af7", { usage: true }).usage?.tools).toEqual([
			{ tool: "Agent", calls: 1, errors: 0 },
			{ tool: "Read", calls: 1, errors: 0 },
		]);
		index.close();
	});

	it("Codex: each response's usage (token_usage_record) once, a resumed run's repeated total not again", async () => {
		const { index } = await indexOver([{ path: join(FIXTURES, "codex"), layout: "codex", agent: "codex" }]);
		// By hand: 7 responses in the session and 1 in the sub-agent, 100 input and 10 output tokens each (the last
		// total_token_usage: 700 / 70); model "fake" of provider "fake", which no price table knows.
		expect(index.usage().total).toMatchObject({
			sessions: 2,
			input: 800,
			output: 80,
			costUsd: 0,
			estimatedUsd: 0,
			unpricedMessages: 8,
			toolCalls: 3,
		});
		expect(index.usage({ by: "model" }).rows.map((r) => [r.key, r.provider, r.input])).toEqual([["fake", "fake", 800]]);
		index.close();
	});

	it("Codex: the same totals when the rollout grows across a resumed run, and from token_count alone (before 0.17x)", async () => {
		const lines = readFileSync(join(FIXTURES, "codex", CODEX_DAY, CODEX_FILE), "utf8")
			.trimEnd()
			.split("\n");
		// The resumed run (`codex exec resume`) begins at line 42 and repeats the last token_count first.
		const resumedAt = lines.findIndex((l) => l.includes('"2026-12-01T11:30:36.084Z"'));
		const older = lines.filter((l) => !l.includes('"type":"token_usage_record"'));
		for (const variant of [lines, older]) {
			const home = tempDir("codex-usage");
			const dir = join(home, CODEX_DAY);
			cpSync(join(FIXTURES, "codex", CODEX_DAY), dir, { recursive: true });
			const path = join(dir, CODEX_FILE);
			const cut = variant === lines ? resumedAt : variant.findIndex((l) => l.includes('"2026-12-01T11:30:36.084Z"'));
			writeFileSync(path, `${variant.slice(0, cut).join("\n")}\n`);
			const { index, source } = await indexOver([{ path: home, layout: "codex", agent: "codex" }]);
			expect(index.usage().total).toMatchObject({ input: 600, output: 60 });
			writeFileSync(path, `${variant.slice(cut).join("\n")}\n`, { flag: "a" });
			expect((await index.sync(source)).grown).toBe(1);
			expect(index.usage().total).toMatchObject({ input: 800, output: 80 });
			index.close();
		}
	});

	it("Gemini CLI: each model message's tokens once, a legacy chat and the chat resumed from it counted once", async () => {
		const { index } = await indexOver([{ path: join(FIXTURES, "gemini", "home", ".gemini", "tmp"), layout: "gemini", agent: "gemini" }]);
		// By hand: 11 gemini messages across the chats (the resumed chat's copy of its legacy chat's message not again),
		// each 10 input and 5 output tokens; gemini-3.1-pro-preview at $2 / $12 per million (below its 200k tier).
		const t = index.usage().total;
		expect(t).toMatchObject({ messages: 11, input: 110, output: 55, unpricedMessages: 0 });
		expect(t.costUsd).toBeCloseTo((110 * 2 + 55 * 12) / 1e6, 9);
		expect(t.estimatedUsd).toBe(t.costUsd);
		expect(index.usage({ by: "model" }).rows.map((r) => [r.key, r.provider])).toEqual([["gemini-3.1-pro-preview", "google"]]);
		index.close();
	});

	it("Claude Code: one API message over several lines counted once, with its last line's usage; an old line's costUSD as recorded", async () => {
		const root = join(tempDir("claude-usage"), "projects");
		const dir = join(root, "-home-user-app");
		mkdirSync(dir, { recursive: true });
		const base = { sessionId: "0b9e5f6a-1111-4222-8333-944445555666", cwd: "/home/user/app", version: "2.1.300", isSidechain: false };
		const line = (uuid: string, parent: string | null, type: string, message: object, extra: object = {}) =>
			JSON.stringify({ ...base, uuid, parentUuid: parent, type, timestamp: "2026-12-02T10:00:00.000Z", message, ...extra });
		const usage = (output: number) => ({
			input_tokens: 1000,
			cache_read_input_tokens: 2000,
			cache_creation_input_tokens: 0,
			output_tokens: output,
		});
		writeFileSync(
			join(dir, `${base.sessionId}.jsonl`),
			`${[
				line("u1", null, "user", { role: "user", content: "edit the config" }),
				line("a1", "u1", "assistant", {
					id: "msg_1",
					role: "assistant",
					model: "claude-sonnet-4-5-20250929",
					content: [{ type: "text", text: "on it" }],
					usage: usage(5),
				}),
				line("a2", "a1", "assistant", {
					id: "msg_1",
					role: "assistant",
					model: "claude-sonnet-4-5-20250929",
					content: [
						{
							type: "tool_use",
							id: "t1",
							name: "Edit",
							input: { file_path: "/home/user/app/config.ts", old_string: "a", new_string: "b" },
						},
					],
					usage: usage(40),
				}),
				line(
					"a3",
					"a2",
					"assistant",
					{ id: "msg_2", role: "assistant", model: "claude-3-5-sonnet-20241022", content: [{ type: "text", text: "done" }] },
					{
						costUSD: 0.25,
					},
				),
			].join("\n")}\n`,
		);
		const { index } = await indexOver([{ path: root, layout: "claude", agent: "claude" }]);
		// msg_1 once with its last line's 40 output tokens, priced as claude-sonnet-4-5 ($3 / $15 / $0.30 per million):
		// 1000×3 + 40×15 + 2000×0.3 = 4,200 µ$; msg_2 recorded no tokens but its cost, $0.25.
		const t = index.usage().total;
		expect(t).toMatchObject({ messages: 2, input: 1000, output: 40, cacheRead: 2000, toolCalls: 1, unpricedMessages: 0 });
		expect(t.costUsd).toBeCloseTo(0.25 + 0.0042, 9);
		expect(t.estimatedUsd).toBeCloseTo(0.0042, 9);
		expect(index.read(base.sessionId, { usage: true }).usage?.files).toEqual([{ path: "/home/user/app/config.ts", edits: 1 }]);
		index.close();
	});

	it("OpenCode: each answer's tokens and recorded cost once, the compaction's summary too, in the sub-agent's session as well", async () => {
		const { index } = await indexOver([{ path: join(FIXTURES, "opencode"), layout: "opencode", agent: "opencode" }]);
		// By hand (test/fixtures/opencode/opencode.db, OpenCode 1.18.33 against the fake model): 8 answers in the
		// session and 1 in the sub-agent's, and the compaction's summary (tokens, no message); each 60 input (100 prompt
		// tokens less 40 cached), 40 cache read and 10 output, but the answer that overflowed the context 8960 input.
		// OpenCode recorded a cost of 0 for each, as for every model it has no price for: the fake model is in no
		// price table either, so the 9 answers and the summary's tokens are counted but not priced.
		expect(index.usage().total).toMatchObject({
			sessions: 2,
			messages: 9,
			input: 9 * 60 + 8960,
			output: 100,
			cacheRead: 400,
			cacheWrite: 0,
			costUsd: 0,
			estimatedUsd: 0,
			unpricedMessages: 10,
			toolCalls: 2,
		});
		expect(index.usage({ by: "agent" }).rows.map((r) => [r.key, r.messages])).toEqual([["opencode", 9]]);
		expect(index.usage({ by: "model" }).rows.map((r) => [r.key, r.provider])).toEqual([["m", "fake"]]);
		index.close();
	});

	it("OpenCode: a cost above 0 as recorded; a recorded 0 beside tokens priced from the registry, or left unpriced", async () => {
		const t = 1_796_300_000_000;
		const { dir, db } = await promptedSession(tempDir("opencode-usage"), "ses_priced", "price the answers", t);
		const answer = (id: string, at: number, provider: string, model: string, cost: number, tokens: AnswerRow["tokens"]) =>
			addAnswer(db, "ses_priced", id, at, { provider, model, cost, tokens });
		// OpenCode priced this one (models.dev): kept as recorded.
		answer("msg_p1", t + 1, "acme", "big-model", 0.25, { input: 1000, output: 200 });
		// A model OpenCode had no price for (or a subscription's): 0 recorded beside tokens, which the registry prices.
		answer("msg_p2", t + 2, "anthropic", "claude-sonnet-4-5", 0, {
			input: 1000,
			output: 80,
			reasoning: 20,
			cache: { read: 2000, write: 0 },
		});
		// 0 beside tokens of a model no table knows: unpriced, not $0.
		answer("msg_p3", t + 3, "local", "my-llama", 0, { input: 50, output: 5 });
		// 0 beside no tokens (an answer aborted before the model said anything): nothing to price.
		answer("msg_p4", t + 4, "anthropic", "claude-sonnet-4-5", 0, {});
		db.close();
		const { index } = await indexOver([{ path: dir, layout: "opencode", agent: "opencode" }]);
		const usage = index.read("ses_priced", { usage: true }).usage!;
		// claude-sonnet-4-5 at $3 / $15 / $0.30 per million in Pi 1.6.0's registry: 1000×3 + 100×15 + 2000×0.3 = 5,100 µ$.
		expect(usage).toMatchObject({ messages: 4, unpricedMessages: 1 });
		expect(usage.costUsd).toBeCloseTo(0.25 + 0.0051, 9);
		expect(usage.estimatedUsd).toBeCloseTo(0.0051, 9);
		expect(usage.models.map((m) => [m.model, m.costUsd, m.estimatedUsd, m.unpricedMessages])).toEqual([
			["big-model", 0.25, 0, 0],
			["claude-sonnet-4-5", 0.0051, 0.0051, 0],
			["my-llama", 0, 0, 1],
		]);
		expect(index.browse({ agent: "opencode" }).find((s) => s.sessionId === "ses_priced")?.usage).toMatchObject({
			estimated: true,
			partial: true,
		});
		index.close();
	});

	it("tool errors of Claude Code, Gemini CLI and OpenCode: each counted against its tool in the session and the dashboard", async () => {
		// Claude Code: the real session's Read call failed (Claude Code's own shape of a failed call).
		const claude = join(tempDir("claude-errors"), "projects");
		cpSync(join(FIXTURES, "claude", "projects"), claude, { recursive: true });
		const claudeFile = join(claude, "-home-user-zebra-app", "803bb4c1-76e6-4594-9fb6-45953cf58af7.jsonl");
		writeFileSync(
			claudeFile,
			readFileSync(claudeFile, "utf8")
				.split("\n")
				.map((l) => {
					if (!l.includes('"tool_use_id":"toolu_fake1"')) return l;
					const o = JSON.parse(l);
					o.message.content[0] = {
						...o.message.content[0],
						content: "<tool_use_error>File does not exist.</tool_use_error>",
						is_error: true,
					};
					o.toolUseResult = "Error: File does not exist.";
					return JSON.stringify(o);
				})
				.join("\n"),
		);
		// Gemini CLI: the real chat's shell call failed (status "error", the response an error).
		const gemini = join(tempDir("gemini-errors"), "tmp");
		const chats = join(gemini, "proj", "chats");
		mkdirSync(chats, { recursive: true });
		const chat = "session-2026-12-01T11-33-4a5c3cf3.jsonl";
		const failed = { error: "Command exited with code 1: cat: notes.txt: No such file or directory" };
		writeFileSync(
			join(chats, chat),
			readFileSync(join(FIXTURES, "gemini", "home", ".gemini", "tmp", "proj", "chats", chat), "utf8")
				.split("\n")
				.map((l) => {
					if (!l.includes('"name":"run_shell_command"')) return l;
					const o = JSON.parse(l);
					for (const call of o.toolCalls ?? []) {
						call.status = "error";
						call.result[0].functionResponse.response = failed;
						call.resultDisplay = failed.error;
					}
					for (const part of Array.isArray(o.content) ? o.content : []) if (part.functionResponse) part.functionResponse.response = failed;
					return JSON.stringify(o);
				})
				.join("\n"),
		);
		// OpenCode: an answer whose bash call failed and whose read succeeded, in OpenCode's rows.
		const t = 1_796_300_000_000;
		const { dir: opencode, db } = await promptedSession(tempDir("opencode-errors"), "ses_errors", "list nowhere", t);
		addAnswer(db, "ses_errors", "msg_e1", t + 1, {
			provider: "acme",
			model: "big-model",
			cost: 0.01,
			tokens: { input: 100 },
			finish: "tool-calls",
		});
		const states: [string, object][] = [
			["bash", { status: "error", input: { command: "ls /nowhere" }, error: "ls: cannot access '/nowhere': No such file or directory" }],
			["read", { status: "completed", input: { filePath: "/home/user/built/a.ts" }, output: "a" }],
		];
		for (const [i, [tool, state]] of states.entries())
			addPart(db, "ses_errors", "msg_e1", `prt_e1${i}`, { type: "tool", tool, callID: `call_e${i}`, state });
		db.close();

		const cases: [SessionRoot, string, { tool: string; calls: number; errors: number }[]][] = [
			[
				{ path: claude, layout: "claude", agent: "claude" },
				"803bb4c1-76e6-4594-9fb6-45953cf58af7",
				[
					{ tool: "Agent", calls: 1, errors: 0 },
					{ tool: "Read", calls: 1, errors: 1 },
				],
			],
			[
				{ path: gemini, layout: "gemini", agent: "gemini" },
				"4a5c3cf3-d58b-4eeb-a3bd-524f0e2c55a6",
				[{ tool: "run_shell_command", calls: 1, errors: 1 }],
			],
			[
				{ path: opencode, layout: "opencode", agent: "opencode" },
				"ses_errors",
				[
					{ tool: "bash", calls: 1, errors: 1 },
					{ tool: "read", calls: 1, errors: 0 },
				],
			],
		];
		for (const [root, session, tools] of cases) {
			const { index } = await indexOver([root]);
			expect(index.read(session, { usage: true }).usage?.tools, root.agent).toEqual(tools);
			const all = index.dashboard().tools;
			expect(all.errors, root.agent).toBe(1);
			expect(all.calls, root.agent).toBe(index.usage().total.toolCalls);
			index.close();
		}
	});

	it("Gemini CLI: cached prompt tokens as cache reads, thoughts as output, the tools' prompt as input", async () => {
		const home = tempDir("gemini-usage");
		const chats = join(home, "tmp", "proj", "chats");
		mkdirSync(chats, { recursive: true });
		const name = "session-2026-12-01T11-33-d46b784e.jsonl";
		const text = readFileSync(join(FIXTURES, "gemini", "home", ".gemini", "tmp", "proj", "chats", name), "utf8");
		writeFileSync(
			join(chats, name),
			text.replaceAll(
				'"tokens":{"input":10,"output":5,"cached":0,"thoughts":0,"tool":0,"total":15}',
				'"tokens":{"input":1000,"output":50,"cached":400,"thoughts":20,"tool":5,"total":1075}',
			),
		);
		const { index } = await indexOver([{ path: join(home, "tmp"), layout: "gemini", agent: "gemini" }]);
		// Two gemini messages: each 1000 + 5 − 400 input, 400 cache read, 50 + 20 output.
		expect(index.usage().total).toMatchObject({ messages: 2, input: 1210, cacheRead: 800, output: 140 });
		index.close();
	});
});
