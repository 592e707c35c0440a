/**
 * Aider's chat history, read from its documented format (src/agents/aider/format.ts names where the shape comes
 * from): Aider needs a model provider to run, so this history is built to that shape, not written by the real CLI.
 * Found in a project's folder under `~/code`, as the command line walks it.
 */

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { aiderFormat } from "../../src/agents/aider/format.js";
import { newParseState } from "../../src/core/parse/session-format.js";
import { lookbackJson } from "../cli-json.js";

/** Two runs as Aider appends them: its banner, a prompt of two lines, an answer with an edit, its output and usage. */
const HISTORY = `
# aider chat started at 2026-06-09 14:01:00

> Aider v0.86.1
> Main model: anthropic/claude-sonnet-4-5 with diff edit format, infinite output
> Git repo: .git with 12 files

#### add a retry to the capybara webhook
#### with exponential backoff

I'll wrap the call in a loop.

webhook.py
\`\`\`python
<<<<<<< SEARCH
send()
=======
for attempt in range(5):
    send()
>>>>>>> REPLACE
\`\`\`

> Tokens: 2.3k sent, 1.5k cache hit, 150 received. Cost: $0.01 message, $0.01 session.
> Applied edit to webhook.py
> Commit 1a2b3c4 feat: retry the capybara webhook

# aider chat started at 2026-06-09 15:30:00

> Aider v0.86.1

#### make the timeout configurable

Added a \`timeout\` argument defaulting to nine seconds of marzipan.
`;

const dirs: string[] = [];
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("Aider's chat history (documented format)", () => {
	it("reads the runs into one session: prompts, answers with their usage, Aider's own output as meta", () => {
		const state = newParseState();
		const parsed = aiderFormat.parseDocument?.(new TextEncoder().encode(HISTORY), state);
		expect(state.header).toMatchObject({ id: "aider-20260609140100", timestamp: "2026-06-09T14:01:00.000Z" });
		const shape = (parsed?.entries ?? []).map((e) => {
			const m = e.raw.message as { role: string; content: { text: string }[] } | undefined;
			return m
				? `${m.role}: ${m.content[0]?.text.split("\n")[0]}`
				: e.type === "custom_message"
					? `meta: ${String(e.raw.content).split("\n")[0]}`
					: e.type;
		});
		expect(shape).toEqual([
			"run_start",
			"meta: Aider v0.86.1",
			"user: add a retry to the capybara webhook",
			"assistant: I'll wrap the call in a loop.",
			"meta: Applied edit to webhook.py",
			"run_start",
			"meta: Aider v0.86.1",
			"user: make the timeout configurable",
			"assistant: Added a `timeout` argument defaulting to nine seconds of marzipan.",
		]);
		const entries = parsed?.entries ?? [];
		expect((entries[2].raw.message as { content: { text: string }[] }).content[0].text).toBe(
			"add a retry to the capybara webhook\nwith exponential backoff",
		);
		expect(entries[3].raw.message).toMatchObject({
			model: "anthropic/claude-sonnet-4-5",
			usage: { input: 800, output: 150, cacheRead: 1500, cacheWrite: 0, cost: { total: 0.01 } },
		});
		expect(entries[8].timestamp).toBe("2026-06-09T15:30:00.000Z");
	});

	it("is found in a project's folder under ~/code, resumed from that folder", async () => {
		const home = realpathSync(mkdtempSync(join(tmpdir(), "aider-home-")));
		dirs.push(home);
		const project = join(home, "code", "capybara");
		mkdirSync(project, { recursive: true });
		writeFileSync(join(project, ".aider.chat.history.md"), HISTORY);
		// Hidden folders are not looked into.
		mkdirSync(join(home, "code", ".cache", "x"), { recursive: true });
		writeFileSync(join(home, "code", ".cache", "x", ".aider.chat.history.md"), HISTORY);
		const env = { HOME: home };
		const reply = await lookbackJson(["search", "marzipan", "--agent", "aider"], env);
		expect(reply.results).toHaveLength(1);
		expect(reply.results[0]).toMatchObject({
			agent: "aider",
			cwd: project,
			path: join(project, ".aider.chat.history.md"),
			resumeHint: `cd ${project} && aider --restore-chat-history`,
		});
		const usage = await lookbackJson(["usage", "--agent", "aider", "--by", "model"], env);
		expect(usage.rows).toEqual([expect.objectContaining({ key: "anthropic/claude-sonnet-4-5", output: 150, costUsd: 0.01 })]);
	});
});
