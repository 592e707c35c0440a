/**
 * Amp's threads, read from its documented format (src/agents/amp/format.ts names where the shape comes from): Amp
 * needs its service to run, so these fixtures are built to that shape, not written by the real CLI. Searched through
 * the command line, which walks Amp's folder under `XDG_DATA_HOME`.
 */

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ampFormat } from "../../src/agents/amp/format.js";
import { newParseState } from "../../src/core/parse/session-format.js";
import { lookbackJson } from "../cli-json.js";

const THREAD = "T-019b9d03-62e3-772f-9780-3e637f90eaec";
const PROJECT = "/work/okapi-garden";

/** A thread in the shape Amp writes: a prompt, a tool call and its result, an answer with usage, a summary. */
function ampThread(id = THREAD, words = "okapi") {
	return {
		v: 7,
		id,
		created: 1767865803494,
		title: `Water the ${words} garden`,
		agentMode: "smart",
		env: { initial: { trees: [{ displayName: "okapi-garden", uri: `file://${PROJECT}` }], platform: { client: "CLI" } } },
		messages: [
			{
				role: "user",
				messageId: 0,
				content: [{ type: "text", text: `Why does the ${words} sprinkler stall?` }],
				meta: { sentAt: 1767865803600 },
			},
			{
				role: "assistant",
				messageId: 1,
				content: [
					{ type: "thinking", thinking: "secret musings never indexed" },
					{ type: "text", text: "Let me read the valve." },
					{ type: "tool_use", id: "toolu_01", name: "edit_file", input: { path: "valve.ts", old_str: "a", new_str: "b" } },
				],
				state: { type: "complete", stopReason: "tool_use" },
				usage: { model: "claude-sonnet-4-5", inputTokens: 120, outputTokens: 40, cacheReadInputTokens: 1000, cacheCreationInputTokens: 10 },
			},
			{
				role: "user",
				messageId: 2,
				content: [{ type: "tool_result", toolUseID: "toolu_01", run: { status: "done", result: "valve reports tamarind pressure" } }],
			},
			{
				role: "assistant",
				messageId: 3,
				content: [{ type: "text", text: "The valve was stuck shut." }],
				state: { type: "complete", stopReason: "end_turn" },
			},
			{ role: "info", messageId: 4, content: [{ type: "summary", summary: { type: "message", summary: "Fixed the stuck valve." } }] },
		],
	};
}

const dirs: string[] = [];
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("Amp's threads (documented format)", () => {
	it("reads a thread into Pi's tree: prompt, answer with its tool call and usage, the tool's output, the summary", () => {
		const state = newParseState();
		const parsed = ampFormat.parseDocument?.(new TextEncoder().encode(JSON.stringify(ampThread())), state);
		expect(state.header).toMatchObject({
			id: THREAD,
			cwd: PROJECT,
			title: "Water the okapi garden",
			timestamp: "2026-01-08T09:50:03.494Z",
		});
		expect(parsed?.malformedLines).toBe(0);
		const entries = parsed?.entries ?? [];
		expect(entries.map((e) => [e.type, (e.raw.message as { role?: string } | undefined)?.role])).toEqual([
			["message", "user"],
			["message", "assistant"],
			["message", "toolResult"],
			["message", "assistant"],
			["branch_summary", undefined],
		]);
		expect(entries[1].raw.message).toMatchObject({
			content: [
				{ type: "text", text: "Let me read the valve." },
				{ type: "toolCall", name: "edit_file", arguments: { path: "valve.ts" } },
			],
			model: "claude-sonnet-4-5",
			usage: { input: 120, output: 40, cacheRead: 1000, cacheWrite: 10 },
			stopReason: "toolUse",
		});
		expect(entries[2].raw.message).toMatchObject({ toolName: "edit_file", isError: false });
		expect(JSON.stringify(entries)).not.toContain("secret musings");
		// Each entry follows the one before.
		for (const [i, e] of entries.entries()) expect(e.parentId).toBe(i === 0 ? null : entries[i - 1].id);
	});

	it("is found by lookback search under XDG_DATA_HOME, with Amp's resume command and title", async () => {
		const home = realpathSync(mkdtempSync(join(tmpdir(), "amp-home-")));
		dirs.push(home);
		const threads = join(home, "data", "amp", "threads");
		mkdirSync(threads, { recursive: true });
		writeFileSync(join(threads, `${THREAD}.json`), JSON.stringify(ampThread()));
		// Not a thread: a file of another name in the folder is left alone.
		writeFileSync(join(threads, "notes.json"), JSON.stringify(ampThread("T-0", "okapi")));
		const env = { HOME: home, XDG_DATA_HOME: join(home, "data") };
		const reply = await lookbackJson(["search", "tamarind", "--agent", "amp"], env);
		expect(reply.results).toHaveLength(1);
		expect(reply.results[0]).toMatchObject({
			agent: "amp",
			sessionId: THREAD,
			cwd: PROJECT,
			name: "Water the okapi garden",
			resumeHint: `amp threads continue ${THREAD}`,
			role: "tool",
		});
		const usage = await lookbackJson(["usage", "--agent", "amp", "--by", "model"], env);
		expect(usage.rows).toEqual([
			expect.objectContaining({ key: "claude-sonnet-4-5", input: 120, output: 40, cacheRead: 1000, cacheWrite: 10, toolCalls: 1 }),
		]);
	});
});
