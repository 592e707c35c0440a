/**
 * Search-quality gate: questions a user asks of the sample sessions, each with the session that must come
 * first. Ranking is deterministic, so hit@1 and hit@5 are asserted here, unlike timings.
 */
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { indexOf, SAMPLE, tempDir } from "../helpers.js";

const GRADED: { query: string; expect: string; why: string }[] = [
	{ query: "why did we choose sql.js over better-sqlite3", expect: SAMPLE.decision, why: "a decision" },
	{ query: "storage engine decision native modules Bun", expect: SAMPLE.decision, why: "a decision, by its reason" },
	{ query: "SQLITE_BUSY database is locked", expect: SAMPLE.bash, why: "an error message" },
	{ query: "reserveStock concurrent orders failing", expect: SAMPLE.bash, why: "a failing test" },
	{ query: "busy timeout WAL journal mode", expect: SAMPLE.bash, why: "the fix" },
	{ query: "npm test", expect: SAMPLE.bash, why: "a command" },
	{ query: "webhookClient.ts", expect: SAMPLE.linear, why: "a file" },
	{ query: "retryPolicy.ts", expect: SAMPLE.linear, why: "a file, by substring of its name" },
	{ query: "死锁", expect: SAMPLE.chinese, why: "a Chinese word" },
	{ query: "批量导入 死锁 排查", expect: SAMPLE.chinese, why: "a Chinese phrase" },
	{ query: "索引 锁 等待 超时", expect: SAMPLE.chinese, why: "Chinese, 1- and 2-character words" },
	{ query: "RabbitMQ quorum queue", expect: SAMPLE.branched, why: "a topic only on an abandoned branch" },
	{ query: "poison pill counter", expect: SAMPLE.branched, why: "an abandoned branch, summarised" },
	{ query: "inspector port 47813", expect: SAMPLE.compaction, why: "a compacted-away detail" },
	{ query: "restart storm tsx watch coverage", expect: SAMPLE.compaction, why: "a compaction summary" },
	{ query: "dead letter queue", expect: SAMPLE.branched, why: "the active topic of a branched session" },
	{ query: "decorrelated jitter", expect: SAMPLE.fork, why: "what only a fork added" },
	{ query: "rollout dry-run uploads artifact", expect: SAMPLE.v1, why: "a v1 legacy session" },
	{ query: "changelog conventional commits", expect: SAMPLE.v2, why: "a v2 legacy session" },
	{ query: "--since --until flags parseWhen", expect: SAMPLE.cliDates, why: "a CLI change" },
	{ query: "pool after calling end", expect: SAMPLE.compaction, why: "an error after a compaction" },
	{ query: "empty snippets screenshot", expect: SAMPLE.decision, why: "a user message with an image" },
];

describe("search quality", () => {
	it("puts the right session first for at least 80% of questions and in the top 5 for 95%", async () => {
		const { index } = await indexOf();
		let at1 = 0;
		let at5 = 0;
		const misses: string[] = [];
		for (const g of GRADED) {
			const ids = index.search({ query: g.query, limit: 5 }).results.map((r) => r.sessionId);
			if (ids[0] === g.expect) at1++;
			else misses.push(`${g.why}: "${g.query}" → ${ids.indexOf(g.expect) + 1 || "not in top 5"}`);
			if (ids.includes(g.expect)) at5++;
		}
		const hit1 = at1 / GRADED.length;
		if (process.env.LOOKBACK_QUALITY_REPORT) console.log(`hit@1 ${at1}/${GRADED.length}, hit@5 ${at5}/${GRADED.length}\n${misses.join("\n")}`);
		const hit5 = at5 / GRADED.length;
		expect(hit1, misses.join("\n")).toBeGreaterThanOrEqual(0.8);
		expect(hit5, misses.join("\n")).toBeGreaterThanOrEqual(0.95);
	});

	it("returns nothing from an empty index", async () => {
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		await index.sync(fileSource([{ path: tempDir(), layout: "nested" }]));
		for (const g of GRADED) expect(index.search({ query: g.query }).results).toEqual([]);
		expect(index.browse()).toEqual([]);
	});
});
