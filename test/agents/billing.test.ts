/**
 * Tokens priced as the provider bills them, each rule on a record a real CLI wrote against a fake model server:
 * Claude Code 2.1.332 copies the API's usage into its file as reported (cache writes split by duration in
 * `cache_creation`, `speed`), so the fake server reports what a real answer would and the file is read as written;
 * Codex 0.171.0 records the service tier the thread runs at (`thread_settings_applied`) from its config.
 */

import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { estimateCost } from "../../src/core/usage/prices.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource, type SessionRoot } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";
import { claudeInstalled, runClaude } from "./claude-run.js";
import { codexInstalled, runCodex } from "./codex-run.js";
import { startFakeAnthropic } from "./fake-anthropic-server.mjs";
import { fakeCodexConfig, startFakeCodexModel } from "./fake-codex-server.mjs";

async function usageOf(roots: SessionRoot[]) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	await index.sync(fileSource(roots));
	const rows = index.usage({ by: "session" }).rows;
	index.close();
	return rows;
}

/** Every assistant record's usage in the Claude files under `dir`, as the CLI wrote it. */
function recordedUsage(dir: string): Record<string, unknown>[] {
	const out: Record<string, unknown>[] = [];
	const walk = (d: string) => {
		for (const e of readdirSync(d, { withFileTypes: true }))
			if (e.isDirectory()) walk(join(d, e.name));
			else if (e.name.endsWith(".jsonl"))
				for (const line of readFileSync(join(d, e.name), "utf8").trim().split("\n")) {
					const o = JSON.parse(line);
					if (o.type === "assistant" && o.message?.usage) out.push(o.message.usage);
				}
	};
	walk(dir);
	return out;
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
	for (const close of closers) await close();
});

describe.skipIf(!claudeInstalled())("Claude Code's calls priced as Anthropic bills them", () => {
	it("1-hour cache writes at 2x input, 5-minute ones at 1.25x; the whole request at the long-context rate above 200k; fast mode at 6x", async () => {
		const answers = [
			// Above 200k of input (150k + 60k read + 12k written): every token at Sonnet 4.5's long-context rates.
			{
				input_tokens: 150_000,
				cache_read_input_tokens: 60_000,
				cache_creation_input_tokens: 12_000,
				cache_creation: { ephemeral_5m_input_tokens: 2_000, ephemeral_1h_input_tokens: 10_000 },
				output_tokens: 1_000,
				service_tier: "standard",
			},
			// Below it: base rates, the hour's writes at 2x input.
			{
				input_tokens: 1_000,
				cache_read_input_tokens: 0,
				cache_creation_input_tokens: 5_000,
				cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 4_000 },
				output_tokens: 100,
				service_tier: "standard",
			},
			// Fast mode: the same answer at six times the rates.
			{ input_tokens: 1_000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 100, speed: "fast" },
		];
		const fake = await startFakeAnthropic({ usage: (n) => answers[n - 1] ?? answers[1] });
		closers.push(fake.close);
		const home = realpathSync(tempDir("claude-billing"));
		const cwd = join(home, "proj");
		mkdirSync(cwd);
		for (const prompt of ["first", "second", "third"]) {
			const run = await runClaude(["-p", prompt, "--model", "claude-sonnet-4-5"], { cwd, home, modelUrl: fake.url });
			expect(run.code, run.stderr).toBe(0);
		}
		const projects = join(home, ".claude", "projects");
		// The records as the CLI wrote them: the durations and the speed kept.
		const recorded = recordedUsage(projects);
		const hours = recorded.map((u) => (u.cache_creation as Record<string, number>)?.ephemeral_1h_input_tokens ?? 0);
		expect(hours.sort((a, b) => b - a)).toEqual([10_000, 4_000, 0]);
		expect(recorded.map((u) => u.speed ?? "standard").sort()).toEqual(["fast", "standard", "standard"]);
		const rows = await usageOf([{ path: projects, layout: "claude", agent: "claude" }]);
		const costs = rows.map((r) => r.costUsd).sort((a, b) => b - a);
		// Sonnet 4.5 in Pi's registry: $3 input, $15 output, $0.30 cache read, $3.75 cache write (5 minutes).
		const long = (150_000 * 6 + 60_000 * 0.6 + 2_000 * 7.5 + 10_000 * 12 + 1_000 * 22.5) / 1e6;
		const hour = (1_000 * 3 + 1_000 * 3.75 + 4_000 * 6 + 100 * 15) / 1e6;
		const fast = (6 * (1_000 * 3 + 100 * 15)) / 1e6;
		expect(costs[0]).toBeCloseTo(long, 9);
		expect(costs.slice(1)).toEqual([expect.closeTo(hour, 9), expect.closeTo(fast, 9)].sort((a, b) => b.expected - a.expected));
		// ccusage's rule would price only each field's tokens above 200k higher: none of them is, so it would say base rates.
		expect(long).toBeGreaterThan(
			estimateCost("anthropic", "claude-sonnet-4-5", { input: 150_000, output: 1_000, cacheRead: 60_000, cacheWrite: 0 }) ?? 0,
		);
	}, 240_000);
});

describe.skipIf(!codexInstalled())("Codex's calls priced at their service tier", () => {
	it("priority at twice the standard rates, as the thread's settings record it", async () => {
		const fake = await startFakeCodexModel();
		closers.push(fake.close);
		const costs: number[] = [];
		for (const tier of ["priority", undefined]) {
			const home = realpathSync(tempDir("codex-billing"));
			const config = fakeCodexConfig(fake.url).replace('model = "fake"', 'model = "gpt-5.5"');
			writeFileSync(join(home, "config.toml"), `${tier ? `service_tier = "${tier}"\n` : ""}${config}`);
			const cwd = join(home, "proj");
			mkdirSync(cwd);
			const run = await runCodex(["hello"], { cwd, home });
			expect(run.code, run.stderr).toBe(0);
			const sessions = join(home, "sessions");
			const text = readdirSync(sessions, { recursive: true })
				.filter((f) => String(f).endsWith(".jsonl"))
				.map((f) => readFileSync(join(sessions, String(f)), "utf8"))
				.join("");
			expect(text.includes('"service_tier":"priority"')).toBe(tier === "priority");
			const rows = await usageOf([{ path: home, layout: "codex", agent: "codex" }]);
			costs.push(rows.reduce((s, r) => s + r.costUsd, 0));
		}
		// gpt-5.5 at $5 input, $30 output; one answer of 100 input and 10 output tokens.
		expect(costs[1]).toBeCloseTo((100 * 5 + 10 * 30) / 1e6, 9);
		expect(costs[0]).toBeCloseTo(2 * costs[1], 9);
	}, 240_000);
});
