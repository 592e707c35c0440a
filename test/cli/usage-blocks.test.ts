/**
 * `lookback usage --by block`, `--timezone`, `--last`, the config file's defaults and `lookback statusline`, on
 * Claude Code sessions whose answers are the real 2.1.332 CLI's lines (test/fixtures/claude) moved in time and given
 * other token counts.
 */

import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { cachedLine, dayIn, hookInput } from "../../src/node/statusline.js";
import { lookbackJson } from "../cli-json.js";
import { tempDir } from "../helpers.js";

const FIXTURE = join(
	import.meta.dirname,
	"..",
	"fixtures",
	"claude",
	"projects",
	"-home-user-zebra-app",
	"803bb4c1-76e6-4594-9fb6-45953cf58af7.jsonl",
);
const SESSION = "5e55a0c1-0000-4000-8000-00000000b10c";

/** A Claude Code session in a fresh HOME with one answer (100 input, `output` output tokens) at each time. */
function history(times: string[], output = 20): { home: string; projects: string } {
	const home = tempDir("blocks");
	const projects = join(home, ".claude", "projects");
	const dir = join(projects, "-home-user-zebra-app");
	mkdirSync(dir, { recursive: true });
	const real = readFileSync(FIXTURE, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l));
	const user = real.find((o) => o.type === "user");
	const answer = real.find((o) => o.type === "assistant");
	let parent: string | null = null;
	const lines = times.flatMap((at, i) => {
		const u = { ...user, sessionId: SESSION, uuid: `u-${i}`, parentUuid: parent, timestamp: at };
		const a = {
			...answer,
			sessionId: SESSION,
			uuid: `a-${i}`,
			parentUuid: `u-${i}`,
			timestamp: at,
			message: { ...answer.message, id: `msg_b${i}`, usage: { ...answer.message.usage, input_tokens: 100, output_tokens: output } },
		};
		parent = `a-${i}`;
		return [u, a];
	});
	writeFileSync(join(dir, `${SESSION}.jsonl`), `${lines.map((o) => JSON.stringify(o)).join("\n")}\n`);
	return { home, projects };
}

async function indexOf(projects: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	await index.sync(fileSource([{ path: projects, layout: "claude", agent: "claude" }]));
	return index;
}

const T = (hm: string, day = "01") => `2026-12-${day}T${hm}:00.000Z`;

describe("billing blocks", () => {
	it("five hours from the hour of the first call; the active one's burn rate, projection and share of the limit", async () => {
		const { projects } = history([T("10:20"), T("12:50"), T("14:59"), T("15:10"), T("21:30"), T("21:50")]);
		const index = await indexOf(projects);
		const now = Date.parse(T("22:15"));
		const r = index.usageBlocks({ now, tokenLimit: "max" });
		expect(r.blocks.map((b) => [b.start, b.messages, b.active])).toEqual([
			[T("10:00"), 3, false],
			[T("15:00"), 1, false],
			[T("21:00"), 2, true],
		]);
		// The most any finished block used: the first, 3 × 120 tokens.
		expect(r.tokenLimit).toBe(360);
		expect(r.active).toMatchObject({ firstCall: T("21:30"), lastCall: T("21:50"), minutesLeft: 225 });
		// 240 tokens over 20 minutes: 12 a minute, and 225 minutes left.
		expect(r.active?.burn?.tokensPerMinute).toBe(12);
		expect(r.active?.projection).toMatchObject({ tokens: 240 + 12 * 225, limitShare: (240 + 12 * 225) / 360 });
		expect(index.usageBlocks({ now, last: 2 }).blocks.map((b) => b.start)).toEqual([T("15:00"), T("21:00")]);
		expect(index.usageBlocks({ now, last: 2 }).total.messages).toBe(3);
		// Past its end, no block is active.
		expect(index.usageBlocks({ now: Date.parse(T("02:00", "02")) }).active).toBeUndefined();
		index.close();
	});

	it("the command line: --by block, --timezone, --last, and their defaults from the config file", async () => {
		const { home } = history([T("10:20"), T("20:30"), T("23:30")]);
		const env = { HOME: home };
		const blocks = await lookbackJson(["usage", "--by", "block", "--token-limit", "1000"], env);
		expect(blocks.blocks.map((b: { start: string }) => b.start)).toEqual([T("10:00"), T("20:00")]);
		expect(blocks.tokenLimit).toBe(1000);
		// 20:30 and 23:30 UTC are the next day in Tokyo (UTC+9).
		const days = await lookbackJson(["usage", "--by", "day", "--timezone", "Asia/Tokyo"], env);
		expect(days.rows.map((r: { key: string; messages: number }) => [r.key, r.messages])).toEqual([
			["2026-12-01", 1],
			["2026-12-02", 2],
		]);
		const last = await lookbackJson(["usage", "--by", "day", "--timezone", "Asia/Tokyo", "--last", "1"], env);
		expect(last.rows.map((r: { key: string }) => r.key)).toEqual(["2026-12-02"]);
		expect(last.total).toMatchObject({ messages: 2, sessions: 1 });
		// The same from the config file in lookback's folder; an option given still wins.
		const folder = join(home, ".local", "share", "lookback");
		writeFileSync(join(folder, "config.json"), JSON.stringify({ usage: { by: "day", timezone: "Asia/Tokyo", last: 1 } }));
		expect((await lookbackJson(["usage"], env)).rows.map((r: { key: string }) => r.key)).toEqual(["2026-12-02"]);
		expect((await lookbackJson(["usage", "--utc"], env)).rows.map((r: { key: string }) => r.key)).toEqual(["2026-12-01"]);
		writeFileSync(join(folder, "config.json"), JSON.stringify({ usage: { timezone: 3 } }));
		let err = "";
		const code = await run(["usage"], { stdout: () => {}, stderr: (t) => (err += t), env, isTTY: false });
		expect(code).not.toBe(0);
		expect(err).toContain('"usage.timezone" cannot be 3');
		const bad = await run(["usage", "--timezone", "Mars/Olympus"], { stdout: () => {}, stderr: (t) => (err += t), env, isTTY: false });
		expect(bad).not.toBe(0);
	});
});

describe("lookback statusline", () => {
	it("answers from the index, then from its cache until the index changes; never syncs", async () => {
		const now = Date.now();
		const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
		const { home } = history([at(30), at(10)], 1_000_000);
		const env = { HOME: home };
		await lookbackJson(["index"], env);
		const input = JSON.stringify({ session_id: SESSION, model: { id: "claude-opus-5-5", display_name: "Opus\u001b[31m 5.5" } });
		(globalThis as Record<symbol, unknown>)[Symbol.for("lookback.statusline.input")] = input;
		let line = "";
		expect(await run(["statusline"], { stdout: (t) => (line += t), stderr: () => {}, env, isTTY: false })).toBe(0);
		// claude-opus-5-5 at $4 / $20 per million: 2 × (100 × 4 + 1M × 20) / 1e6 = $40.0008, in a block 20 minutes old.
		expect(line).toMatch(/^Opus\[31m 5\.5 \| \$40\.00 session \/ \$40\.00 today \/ \$40\.00 block \(\d+h \d+m left\) \| \$\d+\.\d\d\/h\n$/);
		const indexPath = join(home, ".local", "share", "lookback", "index.db");
		expect(cachedLine(indexPath, hookInput(input), "", dayIn(Date.now()), Date.now())).toBe(line);
		// Another session than the cached one, or an index changed since: made from the index again.
		expect(cachedLine(indexPath, { sessionId: "other" }, "", dayIn(Date.now()), Date.now())).toBeUndefined();
		utimesSync(indexPath, new Date(), new Date(now + 5_000));
		expect(cachedLine(indexPath, hookInput(input), "", dayIn(Date.now()), Date.now())).toBeUndefined();
		(globalThis as Record<symbol, unknown>)[Symbol.for("lookback.statusline.input")] = undefined;
	});
});
