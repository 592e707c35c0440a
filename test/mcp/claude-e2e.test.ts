/**
 * `lookback mcp` under Claude Code, added with README's one line (`claude mcp add lookback -- lookback mcp`): the
 * real CLI (scripts/agents/ensure-claude.mjs) against a fake Anthropic model that calls lookback's search. Claude
 * Code records the tool's answer in its own transcript, which must hold the right session; the calling session
 * (this very run, in the server's working directory) is left out; and the server exits with Claude Code.
 */

import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeInstalled, runClaude } from "../agents/claude-run.js";
import { startFakeAnthropic } from "../agents/fake-anthropic-server.mjs";
import { SAMPLE, tempDir } from "../helpers.js";
import { agentDir, CLI } from "./mcp-client.js";
import { processesNaming } from "./processes.js";

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;

describe.skipIf(!claudeInstalled())("lookback mcp under Claude Code", () => {
	beforeAll(async () => {
		fake = await startFakeAnthropic();
	});
	afterAll(async () => {
		await fake?.close();
	});

	it("is added with one command, answers the model's call with the right session, and exits with Claude Code", async () => {
		const root = tempDir("claude-mcp");
		const home = join(root, "home");
		const project = join(root, "project");
		mkdirSync(home, { recursive: true });
		mkdirSync(project);
		const dir = agentDir();
		const at = { cwd: project, home, modelUrl: fake.url };

		const added = await runClaude(["mcp", "add", "lookback", "--", process.execPath, CLI, "mcp", "--agent-dir", dir], {
			...at,
			plain: true,
		});
		expect(added.code, added.stderr).toBe(0);

		// Claude Code defers MCP tools behind its ToolSearch tool by default (the model looks a tool up first); the
		// fake model calls one tool per turn, so the test has the tools listed up front instead.
		const asked = await runClaude(["-p", 'CALL mcp__lookback__search_sessions {"query":"RabbitMQ dead-letter"}'], {
			...at,
			env: { ENABLE_TOOL_SEARCH: "false" },
		});
		expect(asked.code, asked.stderr).toBe(0);
		expect(asked.json?.is_error).toBe(false);
		expect(asked.json?.result).toMatch(/^TOOL RESULT: /);
		const last = fake.requests.at(-1) as { tools?: { name: string }[] } | undefined;
		const offered = last?.tools?.map((t) => t.name) ?? [];
		expect(offered).toEqual(
			expect.arrayContaining([
				"mcp__lookback__search_sessions",
				"mcp__lookback__read_session",
				"mcp__lookback__list_sessions",
				"mcp__lookback__index_status",
			]),
		);

		// Claude Code's own transcript of the run holds lookback's reply: the sample session about RabbitMQ first,
		// and the calling session (this run, in the server's working directory) left out.
		const folder = join(home, ".claude", "projects");
		const transcript = readdirSync(folder)
			.flatMap((p) => readdirSync(join(folder, p)).map((f) => join(folder, p, f)))
			.filter((f) => f.endsWith(`${asked.json?.session_id}.jsonl`));
		expect(transcript).toHaveLength(1);
		const result = readFileSync(transcript[0], "utf8")
			.split("\n")
			.filter((l) => l.includes('"tool_result"'))
			.map((l) => JSON.parse(l) as { message: { content: { type: string; content: unknown }[] } })
			.flatMap((l) => l.message.content)
			.find((c) => c.type === "tool_result");
		expect(result).toBeDefined();
		const text = typeof result?.content === "string" ? result.content : JSON.stringify(result?.content);
		const reply = JSON.parse(text) as { results: { sessionId: string; agent: string }[]; leftOut?: { sessionId: string }[] };
		expect(reply.results[0]).toMatchObject({ sessionId: SAMPLE.branched, agent: "pi" });
		expect(reply.results.map((r) => r.sessionId)).not.toContain(asked.json?.session_id);
		expect(reply.leftOut?.map((l) => l.sessionId)).toEqual([asked.json?.session_id]);

		// The server Claude Code started has gone with it.
		let left = processesNaming(dir);
		for (let i = 0; i < 100 && left.length > 0; i++) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			left = processesNaming(dir);
		}
		expect(left).toEqual([]);
	}, 180_000);
});
