/**
 * Codex CLI's rollouts: the real files Codex 0.171.0 wrote (test/fixtures/codex, scrubbed), a zstd copy, and
 * records built from the format's description for what the real CLI does not write here (the older envelope-less
 * format, event_msg/user_message, local_shell_call, rollbacks, a fork whose file replays its parent's history, as
 * 0.171.0's sub-agents do and its forks do not). The real CLI's apply_patch, its fork (`codex exec fork`) and a
 * rollout it compressed itself are in codex-rollouts-cli.test.ts.
 */

import { copyFileSync, cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codexFormat } from "../../src/agents/codex/format.js";
import { LookbackIndex, memorySource, memoryStorage } from "../../src/core/index.js";
import { parseBytes } from "../../src/core/parse/formats.js";
import { newParseState, type SessionEntry } from "../../src/core/parse/session-format.js";
import { readWhole } from "../../src/core/replies/read.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

const FIXTURE_HOME = join(import.meta.dirname, "..", "fixtures", "codex");
const COMPRESSED_HOME = join(import.meta.dirname, "..", "fixtures", "codex-compressed");
const PARENT = "01a2315e-b204-7071-b339-8dc13fe83021";
const CHILD = "01a2315e-d742-77c1-8ebb-d2698450eb35";
const DAY = join("sessions", "2026", "12", "01");
const PARENT_FILE = `rollout-2026-12-01T11-30-19-${PARENT}.jsonl`;

const enc = new TextEncoder();

function parse(lines: unknown[]) {
	const state = newParseState();
	const text = `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`;
	const parsed = parseBytes(codexFormat, enc.encode(text), state, 0, true);
	return { state, parsed };
}

function role(e: SessionEntry): string {
	const message = e.raw.message as { role?: string } | undefined;
	return message?.role ?? e.type;
}

function text(e: SessionEntry): string {
	if (e.type === "custom_message") return String(e.raw.content);
	if (e.type === "compaction") return String(e.raw.summary);
	const content = (e.raw.message as { content?: { type: string; text?: string; name?: string }[] } | undefined)?.content ?? [];
	return content.map((b) => b.text ?? `${b.name}()`).join(" ");
}

const env = (type: string, payload: unknown, ts = "2025-10-01T10:00:00.000Z") => ({ timestamp: ts, type, payload });
const meta = (extra: Record<string, unknown> = {}) =>
	env("session_meta", {
		id: "0199a000-0000-7000-8000-000000000001",
		timestamp: "2025-10-01T10:00:00Z",
		cwd: "/home/user/proj",
		originator: "codex_cli_rs",
		cli_version: "0.46.0",
		...extra,
	});
const msg = (r: string, t: string, kind = r === "assistant" ? "output_text" : "input_text") =>
	env("response_item", { type: "message", role: r, content: [{ type: kind, text: t }] });

async function indexOver(roots: Parameters<typeof fileSource>[0]) {
	const sql = await loadEngine();
	const index = await LookbackIndex.open({ sql, storage: memoryStorage() });
	const report = await index.sync(fileSource(roots));
	return { index, report };
}

describe("Codex rollouts written by the real CLI (0.171.0)", () => {
	it("reads the session: prompts once, tool call and result joined by call_id, injected context as meta, the compaction", () => {
		const bytes = readFileSync(join(FIXTURE_HOME, DAY, PARENT_FILE));
		const state = newParseState();
		const parsed = parseBytes(codexFormat, bytes, state, 0, true);
		expect(parsed.malformedLines).toBe(0);
		expect(parsed.unknownRecords ?? 0).toBe(0);
		expect(parsed.newVersion).toBeUndefined();
		expect(state.header).toMatchObject({ id: PARENT, cwd: "/home/user/proj" });
		const users = parsed.entries.filter((e) => role(e) === "user").map(text);
		// Each prompt is mirrored as a response item and an item_completed event: indexed once.
		expect(users).toEqual([
			"Please run it. SHELL echo zebra-quartz-42",
			"Second prompt: SPAWN count the llamas",
			"Third prompt after which compaction",
		]);
		const call = parsed.entries.find((e) => text(e).includes("exec_command()"));
		expect(call).toBeDefined();
		const result = parsed.entries.find((e) => role(e) === "toolResult" && text(e).includes("zebra-quartz-42"));
		expect(result?.raw.message).toMatchObject({ toolName: "exec_command" });
		expect(parsed.entries.some((e) => e.type === "custom_message" && text(e).startsWith("<environment_context>"))).toBe(true);
		expect(parsed.entries.some((e) => e.type === "custom_message" && text(e).startsWith("<subagent_notification>"))).toBe(true);
		const compaction = parsed.entries.find((e) => e.type === "compaction");
		expect(compaction?.raw.summary).toContain("SUMMARY OF EARLIER WORK");
		// Ids are the lines' byte offsets, each entry hanging on the one before.
		for (let i = 1; i < parsed.entries.length; i++) expect(parsed.entries[i].parentId).toBe(parsed.entries[i - 1].id);
		expect(new Set(parsed.entries.map((e) => e.id)).size).toBe(parsed.entries.length);
	});

	it("indexes the folder: the sub-agent linked to its session, its replayed parent history indexed once, what the compaction left behind compacted", async () => {
		const { index, report } = await indexOver([{ path: FIXTURE_HOME, layout: "codex", agent: "codex" }]);
		expect(report.added).toBe(2);
		expect(report.unknownRecords).toBe(0);
		const zebra = index.search({ query: "zebra" }).results;
		// Only the parent: the sub-agent's replay of the parent's first prompt is not indexed again.
		expect(zebra.map((r) => r.sessionId)).toEqual([PARENT]);
		expect(zebra[0]).toMatchObject({ agent: "codex", kind: "session", cwd: "/home/user/proj", resumeHint: `codex resume ${PARENT}` });
		expect(zebra[0].branchState).toBe("compacted");
		const after = index.search({ query: "Third prompt after which compaction" }).results[0];
		expect(after.branchState).toBe("active");
		const child = index.search({ query: "llamas", role: "user" }).results.find((r) => r.sessionId === CHILD);
		expect(child).toMatchObject({ kind: "subagent", spawnedBySessionId: PARENT, firstPrompt: "CHILD count the llamas" });
		expect(child?.spawnedBy).toBe(join(FIXTURE_HOME, DAY, PARENT_FILE));
		// The parent names it too, at the spawn_agent call's result (the viewer's link): a rollout beside it, not in a folder of its own.
		const spawned = index.read(PARENT, { structure: true }).structure?.subagents;
		expect(spawned).toEqual([{ sessionId: CHILD, name: expect.stringContaining(CHILD), entryId: expect.any(String) }]);
		const result = index.read(PARENT, { around: spawned?.[0].entryId }).messages.find((m) => m.entryId === spawned?.[0].entryId);
		expect(result).toMatchObject({ role: "tool", tool: "spawn_agent" });
	});

	it("names a session by Codex's session index, the last line for a thread winning, the first prompt otherwise", async () => {
		const home = tempDir("codex-named");
		cpSync(FIXTURE_HOME, home, { recursive: true });
		const line = (id: string, name: string) => `${JSON.stringify({ id, thread_name: name, updated_at: "2026-12-01T12:00:00Z" })}\n`;
		writeFileSync(join(home, "session_index.jsonl"), line(PARENT, "zebra hunt") + line("other", "x") + line(PARENT, "Zebra hunt, renamed"));
		const { index } = await indexOver([{ path: home, layout: "codex", agent: "codex" }]);
		expect(index.search({ query: "zebra" }).results[0].name).toBe("Zebra hunt, renamed");
		expect(index.search({ query: "llamas", role: "user" }).results.find((r) => r.sessionId === CHILD)?.name).toBeUndefined();
	});

	it("knows a rollout by its first line in a folder given by hand", async () => {
		const dir = tempDir("codex-flat");
		copyFileSync(join(FIXTURE_HOME, DAY, PARENT_FILE), join(dir, PARENT_FILE));
		const { index } = await indexOver([{ path: dir, layout: "flat" }]);
		expect(index.search({ query: "zebra" }).results[0]).toMatchObject({
			sessionId: PARENT,
			agent: "codex",
			resumeHint: `codex resume ${PARENT}`,
		});
	});

	it("reads a .jsonl.zst rollout, and prefers the plain file when both exist", async () => {
		const { index, report } = await indexOver([{ path: COMPRESSED_HOME, layout: "codex", agent: "codex" }]);
		expect(report.added).toBe(1);
		const hit = index.search({ query: "zebra" }).results[0];
		expect(hit).toMatchObject({ sessionId: PARENT, agent: "codex" });
		expect(hit.path.endsWith(".jsonl.zst")).toBe(true);
		const home = tempDir("codex-home");
		cpSync(COMPRESSED_HOME, home, { recursive: true });
		copyFileSync(join(FIXTURE_HOME, DAY, PARENT_FILE), join(home, DAY, PARENT_FILE));
		mkdirSync(join(home, "archived_sessions"));
		copyFileSync(
			join(FIXTURE_HOME, DAY, `rollout-2026-12-01T11-30-28-${CHILD}.jsonl`),
			join(home, "archived_sessions", `rollout-x-${CHILD}.jsonl`),
		);
		const both = await indexOver([{ path: home, layout: "codex", agent: "codex" }]);
		expect(both.report.added).toBe(2);
		expect(both.index.search({ query: "zebra" }).results[0].path.endsWith(".jsonl")).toBe(true);
		expect(both.index.search({ query: "llamas", role: "user" }).results.some((r) => r.sessionId === CHILD)).toBe(true);
	});

	it("stops inflating a zstd file at the cap, indexing what came before it", async () => {
		const { DEFAULTS } = await import("../../src/core/defaults.js");
		const saved = DEFAULTS.maxInflatedBytes;
		(DEFAULTS as { maxInflatedBytes: number }).maxInflatedBytes = 8_000;
		try {
			const { index, report } = await indexOver([{ path: COMPRESSED_HOME, layout: "codex", agent: "codex" }]);
			expect(report.skipped.oversized).toBe(1);
			expect(report.skippedFiles[0].detail).toMatch(/inflates past 8000 bytes/);
			expect(index.search({ query: "zebra" }).results).toEqual([]);
		} finally {
			(DEFAULTS as { maxInflatedBytes: number }).maxInflatedBytes = saved;
		}
	});
});

describe("Codex records built from the format's description", () => {
	it("takes event_msg/user_message as the person's words, its response-item mirror once, and skips reasoning, turn_context and other events", () => {
		const { parsed } = parse([
			meta(),
			msg("developer", "<permissions instructions>sandboxed</permissions instructions>"),
			msg("user", "# AGENTS.md instructions for /home/user/proj\n\nbe brief"),
			msg("user", "<user_instructions>use tabs</user_instructions>"),
			env("turn_context", { cwd: "/home/user/proj", model: "gpt-5" }),
			env("event_msg", { type: "user_message", message: "find the wombat", images: [] }),
			msg("user", "find the wombat"),
			env("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: "secret thoughts" }], encrypted_content: "x" }),
			env("event_msg", { type: "agent_reasoning", text: "secret thoughts" }),
			env("event_msg", { type: "token_count", info: null }),
			msg("assistant", "The wombat is in burrow.ts"),
			env("event_msg", { type: "agent_message", message: "The wombat is in burrow.ts" }),
		]);
		expect(parsed.entries.map((e) => [role(e), text(e)])).toEqual([
			["custom_message", "<permissions instructions>sandboxed</permissions instructions>"],
			["custom_message", "# AGENTS.md instructions for /home/user/proj\n\nbe brief"],
			["custom_message", "<user_instructions>use tabs</user_instructions>"],
			["user", "find the wombat"],
			["assistant", "The wombat is in burrow.ts"],
		]);
		expect(JSON.stringify(parsed.entries)).not.toContain("secret thoughts");
	});

	it("joins function, custom (apply_patch) and local shell calls to their outputs by call_id", () => {
		const { parsed } = parse([
			meta(),
			env("response_item", { type: "function_call", name: "shell", arguments: '{"command":["rg","quokka"]}', call_id: "c1" }),
			env("response_item", {
				type: "function_call_output",
				call_id: "c1",
				output: '{"output":"src/quokka.ts","metadata":{"exit_code":0}}',
			}),
			env("response_item", {
				type: "custom_tool_call",
				name: "apply_patch",
				call_id: "c2",
				input: "*** Begin Patch\n*** Update File: numbat.ts\n+const numbat = 1;\n*** End Patch",
			}),
			env("response_item", {
				type: "custom_tool_call_output",
				call_id: "c2",
				output: "Success. Updated the following files:\nM numbat.ts",
			}),
			env("response_item", {
				type: "local_shell_call",
				call_id: "c3",
				status: "completed",
				action: { type: "exec", command: ["ls", "bilby"] },
			}),
			env("response_item", { type: "function_call_output", call_id: "c3", output: { content: "bilby.txt", success: false } }),
		]);
		const calls = parsed.entries
			.filter((e) => role(e) === "assistant")
			.map((e) => (e.raw.message as { content: { name: string; arguments: unknown }[] }).content[0]);
		expect(calls.map((c) => c.name)).toEqual(["shell", "apply_patch", "local_shell"]);
		expect(calls[0].arguments).toEqual({ command: ["rg", "quokka"] });
		expect(JSON.stringify(calls[1].arguments)).toContain("const numbat = 1;");
		const results = parsed.entries
			.filter((e) => role(e) === "toolResult")
			.map((e) => e.raw.message as { toolName: string; isError: boolean; content: { text: string }[] });
		expect(results.map((r) => r.toolName)).toEqual(["shell", "apply_patch", "local_shell"]);
		expect(results[2]).toMatchObject({ isError: true, content: [{ text: "bilby.txt" }] });
	});

	it("takes a shell command's non-zero exit as the call's error, as 0.17x and older releases write it", () => {
		const call = (id: string) =>
			env("response_item", { type: "function_call", name: "exec_command", arguments: '{"cmd":"ls"}', call_id: id });
		const out = (id: string, output: unknown) => env("response_item", { type: "function_call_output", call_id: id, output });
		const { parsed } = parse([
			meta(),
			call("a"),
			out(
				"a",
				"Chunk ID: 81af3d\nWall time: 0.0063 seconds\nProcess exited with code 2\nOriginal token count: 4\nOutput:\nls: cannot access",
			),
			call("b"),
			out("b", "Chunk ID: 81af3e\nWall time: 0.0063 seconds\nProcess exited with code 0\nOutput:\nProcess exited with code 1"),
			call("c"),
			out("c", '{"output":"no such file","metadata":{"exit_code":1,"duration_seconds":0.1}}'),
			call("d"),
			out("d", '{"output":"src/quokka.ts","metadata":{"exit_code":0}}'),
		]);
		const errors = parsed.entries.filter((e) => role(e) === "toolResult").map((e) => (e.raw.message as { isError: boolean }).isError);
		expect(errors).toEqual([true, false, true, false]);
	});

	it("leaves a rolled-back turn abandoned and hangs what follows where it began", async () => {
		const lines = [
			meta(),
			env("event_msg", { type: "user_message", message: "first ask about the echidna" }),
			msg("assistant", "echidna answer"),
			env("event_msg", { type: "user_message", message: "second ask about the platypus" }),
			msg("assistant", "platypus answer"),
			env("event_msg", { type: "thread_rolled_back", num_turns: 1 }),
			env("event_msg", { type: "user_message", message: "instead ask about the dingo" }),
			msg("assistant", "dingo answer"),
		];
		const files = new Map([
			[
				"/r/rollout-2025-10-01T10-00-00-0199a000-0000-7000-8000-000000000001.jsonl",
				enc.encode(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`),
			],
		]);
		const sql = await loadEngine();
		const index = await LookbackIndex.open({ sql, storage: memoryStorage() });
		const source = memorySource(files);
		const walk = source.walk.bind(source);
		source.walk = async () => {
			const w = await walk();
			for (const f of w.files) f.agent = "codex";
			return w;
		};
		await index.sync(source);
		expect(index.search({ query: "platypus" }).results[0].branchState).toBe("abandoned");
		expect(index.search({ query: "echidna" }).results[0].branchState).toBe("active");
		expect(index.search({ query: "dingo" }).results[0].branchState).toBe("active");
	});

	it("skips a fork's replayed parent history (ended by its own records) and names the parent as parentSession", () => {
		const own = "0199a000-0000-7000-8000-0000000000f0";
		const { state, parsed } = parse([
			env("session_meta", {
				id: own,
				forked_from_id: "0199a000-0000-7000-8000-000000000001",
				cwd: "/home/user/proj",
				cli_version: "0.46.0",
			}),
			meta(),
			env("event_msg", { type: "user_message", message: "parent prompt about the kiwi" }),
			msg("assistant", "parent answer"),
			env("event_msg", { type: "thread_settings_applied", thread_id: own }),
			env("event_msg", { type: "user_message", message: "fork prompt about the kea" }),
		]);
		expect(state.header).toMatchObject({ id: own, parentSession: "0199a000-0000-7000-8000-000000000001" });
		expect(parsed.entries.map(text)).toEqual(["fork prompt about the kea"]);
	});

	it("keeps a fork's hit its own when a matching entry of its parent sits at the same byte offset (ids are offsets, not copies)", async () => {
		const parent = "0199a000-0000-7000-8000-000000000001";
		const fork = "0199a000-0000-7000-8000-0000000000f0";
		const home = tempDir("codex-fork-offsets");
		const day = join(home, "sessions", "2025", "10", "01");
		mkdirSync(day, { recursive: true });
		const line = (o: unknown) => `${JSON.stringify(o)}\n`;
		const head = (id: string, extra: Record<string, unknown>) => line(env("session_meta", { id, cwd: "/home/user/proj", ...extra }));
		const forkHead = head(fork, { forked_from_id: parent });
		// The parent's first line padded to the fork's length: both prompts start at the same offset, so have the same id.
		const bare = head(parent, { pad: "" });
		const parentHead = head(parent, { pad: "x".repeat(forkHead.length - bare.length) });
		expect(parentHead.length).toBe(forkHead.length);
		const prompt = (text: string) => line(env("event_msg", { type: "user_message", message: text }));
		writeFileSync(join(day, `rollout-2025-10-01T10-00-00-${parent}.jsonl`), parentHead + prompt("the kiwi in the parent"));
		writeFileSync(join(day, `rollout-2025-10-01T10-00-05-${fork}.jsonl`), forkHead + prompt("the kiwi in the fork"));
		const { index } = await indexOver([{ path: home, layout: "codex", agent: "codex" }]);
		const hits = index.search({ query: "kiwi" }).results;
		expect(hits[0].entryId).toBe(hits[1]?.entryId);
		expect(hits.map((h) => [h.sessionId, h.forks]).sort()).toEqual([
			[parent, []],
			[fork, []],
		]);
		expect(hits.find((h) => h.sessionId === fork)?.parentSessionId).toBe(parent);
	});

	it("links a sub-agent to the thread that spawned it", () => {
		const { state } = parse([
			env("session_meta", {
				id: "0199a000-0000-7000-8000-0000000000a1",
				forked_from_id: "0199a000-0000-7000-8000-000000000001",
				source: { subagent: { thread_spawn: { parent_thread_id: "0199a000-0000-7000-8000-000000000001", depth: 1 } } },
			}),
		]);
		expect(state.header).toMatchObject({ spawnedById: "0199a000-0000-7000-8000-000000000001" });
		expect(state.header?.parentSession).toBeUndefined();
	});

	it("reads the older envelope-less format: header line, bare response items, state records, cwd from the environment context", () => {
		const { state, parsed } = parse([
			{ id: "5973b6c0-94b8-487b-a530-2aeb6098ae0e", timestamp: "2025-08-20T10:00:00.000Z", instructions: null, git: { branch: "main" } },
			{ record_type: "state" },
			{
				type: "message",
				role: "user",
				content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/home/user/old</cwd>\n</environment_context>" }],
			},
			{ type: "message", role: "user", content: [{ type: "input_text", text: "where is the cassowary" }] },
			{ type: "function_call", name: "shell", arguments: '{"command":["rg","cassowary"]}', call_id: "call_1" },
			{ type: "function_call_output", call_id: "call_1", output: '{"output":"zoo.ts"}' },
			{ type: "reasoning", summary: [] },
			{ type: "message", role: "assistant", content: [{ type: "output_text", text: "in zoo.ts" }] },
			{ record_type: "state" },
		]);
		expect(state.header).toMatchObject({ id: "5973b6c0-94b8-487b-a530-2aeb6098ae0e", cwd: "/home/user/old" });
		expect(parsed.entries.map(role)).toEqual(["custom_message", "user", "assistant", "toolResult", "assistant"]);
		expect(parsed.unknownRecords ?? 0).toBe(0);
	});

	it("takes a name given to the thread as the session's title", () => {
		const { parsed } = parse([
			meta(),
			env("event_msg", { type: "user_message", message: "hello" }),
			env("event_msg", { type: "thread_name_updated", thread_id: "0199a000-0000-7000-8000-000000000001", thread_name: "first name" }),
			env("event_msg", {
				type: "thread_name_updated",
				thread_id: "0199a000-0000-7000-8000-000000000001",
				thread_name: "Pangolin migration",
			}),
		]);
		expect(parsed.title).toBe("Pangolin migration");
	});

	it("counts malformed lines and unknown records, and names a newer CLI version once", () => {
		const { parsed } = parse([
			meta({ cli_version: "0.999.0" }),
			"{not json",
			env("hologram", { x: 1 }),
			env("response_item", { type: "teleport_call", call_id: "t" }),
			msg("user", "still read after the noise"),
		]);
		expect(parsed.malformedLines).toBe(1);
		expect(parsed.unknownRecords).toBe(2);
		expect(parsed.newVersion).toBe("Codex 0.999.0");
		expect(parsed.entries.map(text)).toEqual(["still read after the noise"]);
	});
});

describe("Codex files of any size", () => {
	it("reads a rollout over maxFileBytes in chunks, skips and counts a line over the cap, and keeps a long compaction as a compaction", async () => {
		const { DEFAULTS } = await import("../../src/core/defaults.js");
		const d = DEFAULTS as { maxLineBytes: number; readChunkBytes: number; maxFileBytes: number };
		const saved = { ...d };
		d.maxLineBytes = 20_000;
		d.readChunkBytes = 4_096;
		try {
			const home = tempDir("codex-big");
			const dir = join(home, DAY);
			mkdirSync(dir, { recursive: true });
			const image = { type: "input_image", image_url: `data:image/png;base64,${"A".repeat(30_000)}` };
			const lines = [
				meta(),
				env("event_msg", { type: "user_message", message: "look at the axolotl picture" }),
				env("response_item", {
					type: "message",
					role: "user",
					content: [{ type: "input_text", text: "look at the axolotl picture" }, image],
				}),
				msg("assistant", "an axolotl, pink"),
				env("compacted", { message: "summary: the axolotl was pink", replacement_history: [image, image] }),
				...Array.from({ length: 40 }, (_, i) => msg("assistant", `filler line ${i} about the capybara`)),
				env("event_msg", { type: "user_message", message: "after the compaction the tapir" }),
			];
			const path = join(dir, "rollout-2025-10-01T10-00-00-0199a000-0000-7000-8000-000000000001.jsonl");
			writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
			utimesSync(path, new Date(), new Date());
			const sql = await loadEngine();
			const index = await LookbackIndex.open({ sql, storage: memoryStorage() });
			const report = await index.sync(fileSource([{ path: home, layout: "codex", agent: "codex" }]), { maxFileBytes: 10_000 });
			expect(report.skipped.oversized).toBe(0);
			expect(report.added).toBe(1);
			expect(report.longLines).toBe(2);
			expect(index.search({ query: "capybara" }).results).toHaveLength(1);
			expect(index.search({ query: "axolotl" }).results[0].branchState).toBe("compacted");
			expect(index.search({ query: "tapir" }).results[0].branchState).toBe("active");
			expect(index.search({ query: "summary axolotl pink", role: "summary" }).results).toHaveLength(1);
			// The agent's tool reads it too: its size is no reason to refuse (Pi's files over maxFileBytes still are).
			const reply = readWhole(index, "0199a000-0000-7000-8000-000000000001", { sizeOf: () => 2 ** 31 });
			expect(reply.messages.map((m) => m.text)).toContain("after the compaction the tapir");
			// Grown: only the new bytes are read, the ids go on from the byte offsets.
			writeFileSync(path, `${JSON.stringify(env("event_msg", { type: "user_message", message: "grown with the quoll" }))}\n`, {
				flag: "a",
			});
			const grown = await index.sync(fileSource([{ path: home, layout: "codex", agent: "codex" }]), { maxFileBytes: 10_000 });
			expect(grown.grown).toBe(1);
			expect(grown.longLines).toBe(0);
			expect(index.search({ query: "quoll" }).results[0].branchState).toBe("active");
		} finally {
			Object.assign(d, saved);
		}
	});
});
