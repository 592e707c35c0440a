/**
 * Usage read from each other agent's real files (test/fixtures: Claude Code 2.1.332, Codex 0.171.0, Gemini CLI
 * 0.61.0 against fake models), summed against totals counted by hand from the files, with the estimated prices
 * of Pi's registry where the agent recorded no cost; and Codex's usage reports read across a file's growth.
 */

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource, type SessionRoot } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

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
});
