/**
 * The golden set: questions written the way people remember a session, each with the session that must come
 * first and why. Ranking is deterministic, so every known miss at 1 and at 5 is listed by name (a new miss, or a
 * fixed one, fails), and the ordered top results are exact where the answer is certain.
 * Run twice: the graded sessions alone, and buried under a generated corpus of newer, unrelated sessions.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { writeGradedSessions } from "../graded-sessions.js";
import { FIXTURES, indexOf, SAMPLE } from "../helpers.js";

type Name = keyof typeof SAMPLE | keyof ReturnType<typeof writeGradedSessions>["ids"];
interface Graded {
	query: string;
	/** Other phrasings the asking agent passes with the query (a paraphrase, a translation). */
	variants?: string[];
	expect: Name;
	why: string;
	/** The exact session order at the top, where it is certain. */
	top?: Name[];
}

const GOLDEN: Graded[] = [
	{ query: "why did we choose sql.js over better-sqlite3", expect: "decision", why: "a decision" },
	{ query: "storage engine decision native modules Bun", expect: "decision", why: "a decision, by its reason" },
	{ query: "when did we decide against native sqlite modules", expect: "decision", why: "a decision, paraphrased with other word forms" },
	{ query: "SQLITE_BUSY database is locked", expect: "bash", why: "an error message" },
	{ query: "database locked errors in the inventory tests", expect: "bash", why: "an error, by word forms (errors, tests)" },
	{ query: "reserveStock concurrent orders failing", expect: "bash", why: "a failing test" },
	{ query: "reserving stock concurrently", expect: "bash", why: "a test name by other forms of its words" },
	{ query: "busy timeout WAL journal mode", expect: "bash", why: "the fix" },
	{ query: "npm test", expect: "bash", why: "a command" },
	{ query: "no-floating-promises lint", expect: "bash", why: "a lint report (custom message)" },
	{ query: "webhookClient.ts", expect: "linear", why: "a file" },
	{ query: "retryPolicy.ts", expect: "linear", why: "a file, by substring of its name" },
	{ query: "retrying payment webhooks", expect: "linear", why: "the session name, by word forms", top: ["linear"] },
	{ query: "webhok retry polcy", expect: "linear", why: "typos" },
	{ query: "webhook delivery abandoned", expect: "linear", why: "only in the parent after the fork point" },
	{ query: "死锁", expect: "chinese", why: "a Chinese word" },
	{ query: "批量导入 死锁 排查", expect: "chinese", why: "a Chinese phrase" },
	{ query: "索引 锁 等待 超时", expect: "chinese", why: "Chinese, 1- and 2-character words" },
	{ query: "死锁怎么解决", expect: "chinese", why: "a Chinese question: pairs of characters" },
	{ query: "导入的时候数据库报错", expect: "chinese", why: "Chinese said differently" },
	{ query: "deadlock detected postgres import", expect: "chinese", why: "an English error inside a Chinese session" },
	{ query: "lock_timeout 5s", expect: "chinese", why: "a setting" },
	{ query: "idx_stock_sku concurrently", expect: "chinese", why: "an index name" },
	{ query: "批量导入死锁排查", expect: "chinese", why: "the session name" },
	{ query: "RabbitMQ quorum queue", expect: "branched", why: "a topic only on an abandoned branch" },
	{ query: "rabbitmq migration abandoned", expect: "branched", why: "an abandoned branch, remembered as abandoned" },
	{ query: "amqplib", expect: "branched", why: "a library tried on an abandoned branch" },
	{ query: "poison pill counter", expect: "branched", why: "an abandoned branch, summarised" },
	{ query: "poisonCount", expect: "branched", why: "an identifier on an abandoned branch" },
	{ query: "removeOnFail", expect: "branched", why: "only in a branch summary" },
	{ query: "dead letter queue", expect: "branched", why: "the active topic of a branched session" },
	{ query: "stalled jobs lock duration", expect: "branched", why: "identifiers by their parts" },
	{ query: "Order queue dead-letter handling", expect: "branched", why: "the session name" },
	{ query: "inspector port 47813", expect: "compaction", why: "a compacted-away detail" },
	{ query: "restart storm tsx watch coverage", expect: "compaction", why: "a compaction summary" },
	{ query: "pool after calling end", expect: "compaction", why: "an error after a compaction" },
	{ query: "healthz returns 500 after restart", expect: "compaction", why: "a symptom" },
	{ query: "debugger port restart loop", expect: "compaction", why: "a cause, paraphrased" },
	{ query: "Flaky dev server restarts", expect: "compaction", why: "the session name" },
	{ query: "decorrelated jitter", expect: "fork", why: "what only a fork added", top: ["fork"] },
	{ query: "jitter in the retry delay", expect: "fork", why: "a fork's change, paraphrased" },
	{ query: "delayFor jitter", expect: "fork", why: "a method of the fork's change" },
	{ query: "Retry jitter fork of retry policy", expect: "fork", why: "the fork's own name" },
	{ query: "rollout dry-run uploads artifact", expect: "v1", why: "a v1 legacy session" },
	{ query: "OPS-1187", expect: "v1", why: "a ticket in a v1 compaction summary" },
	{ query: "deployctl plan flag", expect: "v1", why: "a rename" },
	{ query: "uploadArtifact", expect: "v1", why: "an identifier" },
	{ query: "changelog conventional commits", expect: "v2", why: "a v2 legacy session" },
	{ query: "Working tree dirty", expect: "v2", why: "a v2 hook message" },
	{ query: "tag v2.2.4 changelog", expect: "v2", why: "a version tag" },
	{ query: "--since --until flags parseWhen", expect: "cliDates", why: "a CLI change" },
	{ query: "parseWhen", expect: "cliDates", why: "a function" },
	{ query: "until flag for the cli", expect: "cliDates", why: "a CLI change, paraphrased" },
	{ query: "empty snippets screenshot", expect: "decision", why: "a user message with an image" },
	{ query: "ADR storage engine", expect: "decision", why: "a decision record" },
	{ query: "rebuildTrigramShadowTable", expect: "decision", why: "an identifier in the middle of a long tool output" },
	{ query: "legacySnippetsV0Cleanup", expect: "decision", why: "an identifier at the end of a long tool output" },
	{ query: "snippet column bug", expect: "decision", why: "a bug fixed" },
	{ query: "ZephyrQuotaLedgerMismatch", expect: "deep", why: "an identifier at character 31,000 of a 50,000-character log" },
	{ query: "ZephyrQuotaLedgerMismach", expect: "deep", why: "the same, mistyped" },
	{ query: "halfwaysplitword", expect: "deep", why: "a word across the end of the stored head" },
	{ query: "quota ledger reconciliation failure", expect: "deep", why: "words of a failing test deep in a log" },
	{ query: "pgbouncer pool mode for staging", expect: "pgbouncer", why: "one rare word above several common ones", top: ["pgbouncer"] },
	{
		query: "what was the pgbouncer pool mode for staging again",
		expect: "pgbouncer",
		why: "the same with question words",
		top: ["pgbouncer"],
	},
	{ query: "pgbounser replica", expect: "pgbouncer", why: "a typo" },
	{ query: "数据库连接池满了导致超时", expect: "chinesePool", why: "a Chinese paraphrase of 连接池耗尽 and 超时" },
	{ query: "advisory locking migrations", expect: "lock", why: "word forms (locking, migrations)" },
	{ query: "locking", expect: "locking", why: "the exact form above its relatives", top: ["locking"] },
	{ query: "flaky uploader retry test", expect: "slash", why: "a session whose first prompt is a slash command" },
	{ query: "PGBOUNCER_POOL_MODDE", expect: "pgbouncer", why: "a typo inside a SNAKE_CASE identifier" },
	{ query: "deploy/pgbouncr.ini", expect: "pgbouncer", why: "a typo inside a path" },
	{ query: "why did the retry test keep waiting on the timer", expect: "slash", why: "a question whose words are all common" },
	{
		query: "connection pool exhausted and every request timing out",
		variants: ["连接池耗尽 超时"],
		expect: "chinesePool",
		why: "a session in another language than the question: the agent's translation finds it",
	},
	{
		query: "cola de mensajes replicada",
		variants: ["RabbitMQ quorum queue"],
		expect: "branched",
		why: "a paraphrase only the variant names",
	},
];

/** Questions known to miss (not first), by query: a fix must remove them from here, a regression add to it. */
const KNOWN_MISSES: Record<"alone" | "buried", string[]> = {
	// (`npm test` missed until 2026-12-07: two graded sessions ran it, and BM25 put the billing session's shorter
	// command entry first while `test` also matched the words holding it anywhere; among other words, a short word
	// now matches only the words it begins.)
	alone: [],
	buried: [
		// The generated corpus holds the same error, `Error: SQLITE_BUSY: database is locked`, in newer sessions (graded: 3rd).
		"SQLITE_BUSY database is locked",
		// Generated Chinese prose holds 怎么解决 literally and 死锁 (graded: below the top 5, the one hit@5 miss).
		"死锁怎么解决",
		// Generated Chinese prose holds more of the pairs (数据库, 连接池, 导致, 超时) than the graded session (graded: 4th).
		"数据库连接池满了导致超时",
		// Every word is common: newer generated sessions have retry, test, waiting and timer too (graded: below the top 5).
		"why did the retry test keep waiting on the timer",
	],
};

/** Questions known to miss the top 5, by query: the same rule. */
const KNOWN_MISSES_AT5: Record<"alone" | "buried", string[]> = {
	alone: [],
	buried: ["死锁怎么解决"],
};

let graded: Record<string, string>;

function grade(index: LookbackIndex) {
	const misses: string[] = [];
	const missesAt5: string[] = [];
	const wrongTops: string[] = [];
	for (const g of GOLDEN) {
		const ids = index.search({ query: g.query, variants: g.variants, limit: 5 }).results.map((r) => r.sessionId);
		const want = graded[g.expect];
		if (ids[0] !== want) misses.push(g.query);
		if (!ids.includes(want)) missesAt5.push(g.query);
		if (g.top && JSON.stringify(ids.slice(0, g.top.length)) !== JSON.stringify(g.top.map((n) => graded[n]))) wrongTops.push(g.query);
	}
	return { misses, missesAt5, wrongTops };
}

const dirs: string[] = [];
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The fixtures and the graded sessions in one folder, dated long ago (so generated sessions are all newer). */
function gradedFolder(): string {
	const root = mkdtempSync(join(tmpdir(), "golden-"));
	dirs.push(root);
	const sessions = join(root, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	const written = writeGradedSessions(sessions);
	graded = { ...SAMPLE, ...written.ids };
	const old = new Date("2026-01-01T00:00:00Z");
	for (const dir of readdirSync(sessions)) {
		if (!statSync(join(sessions, dir)).isDirectory()) continue;
		for (const f of readdirSync(join(sessions, dir))) utimesSync(join(sessions, dir, f), old, old);
	}
	return root;
}

describe("golden set", () => {
	it("holds at least 60 questions, each with its reason", () => {
		expect(GOLDEN.length).toBeGreaterThanOrEqual(60);
		for (const g of GOLDEN) expect(g.why.length).toBeGreaterThan(3);
		expect(new Set(GOLDEN.map((g) => g.query)).size).toBe(GOLDEN.length);
	});

	it("returns nothing from an empty index", async () => {
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		const empty = mkdtempSync(join(tmpdir(), "golden-empty-"));
		dirs.push(empty);
		await index.sync(fileSource([{ path: empty, layout: "nested" }]));
		for (const g of GOLDEN) expect(index.search({ query: g.query }).results).toEqual([]);
		expect(index.browse()).toEqual([]);
	});

	describe.each(["alone", "buried"] as const)("%s", (mode) => {
		let index: LookbackIndex;
		beforeAll(async () => {
			const root = gradedFolder();
			if (mode === "buried") {
				// Newer, unrelated sessions: the generator's corpus, under its own project folders.
				const out = join(root, "generated");
				generateCorpus({ out, mb: 24, seed: 5 });
				for (const dir of readdirSync(join(out, "sessions")))
					cpSync(join(out, "sessions", dir), join(root, "sessions", `gen${dir}`), { recursive: true });
				rmSync(out, { recursive: true, force: true });
			}
			({ index } = await indexOf(join(root, "sessions")));
			if (mode === "buried") expect(index.stats().sessions).toBeGreaterThan(75); // 18 graded among 60+ generated, about 24 MB
		}, 240_000);

		it("misses at 1 and at 5 exactly the known misses, with exact tops where certain", () => {
			const r = grade(index);
			const share = (missed: string[]) => `${(100 * (1 - missed.length / GOLDEN.length)).toFixed(1)}%`;
			if (process.env.LOOKBACK_QUALITY_REPORT)
				console.log(
					`${mode}: hit@1 ${share(r.misses)}, hit@5 ${share(r.missesAt5)}\nmisses: ${r.misses.join(" | ")}\nwrong tops: ${r.wrongTops.join(" | ")}`,
				);
			expect(r.misses).toEqual(KNOWN_MISSES[mode]);
			expect(r.missesAt5).toEqual(KNOWN_MISSES_AT5[mode]);
			expect(r.wrongTops).toEqual([]);
		});
	});
});
