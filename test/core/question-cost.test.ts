/**
 * What a question costs against what a plain two-word query costs, counted rather than timed: the FTS5 queries
 * a search runs, the terms FTS5 must look up and count for them (BM25 counts every term's documents), and the
 * rowids they return. A question must stay within a small multiple of two words (issue 21: "as fast as words").
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { DEFAULTS, type LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { LookbackIndex as Index } from "../../src/core/lookback.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";

interface Cost {
	queries: number;
	terms: number;
	rows: number;
}

let dir: string;
let index: LookbackIndex;
let cost: Cost = { queries: 0, terms: 0, rows: 0 };

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "question-cost-"));
	generateCorpus({ out: dir, mb: 16, seed: 3 });
	const sql = await loadEngine();
	// Every statement that runs an FTS5 MATCH over the entries: its terms and the rows it returns.
	const proto = sql.Database.prototype;
	const prepare = proto.prepare;
	proto.prepare = function (this: typeof proto, text: string, ...rest: unknown[]) {
		const stmt = prepare.call(this, text, ...(rest as [])) as ReturnType<typeof prepare>;
		if (!/entries_(fts|deep) MATCH/.test(text)) return stmt;
		const bind = stmt.bind.bind(stmt);
		const step = stmt.step.bind(stmt);
		stmt.bind = (params) => {
			const match = String((params as unknown[] | undefined)?.[0] ?? "");
			cost.queries++;
			cost.terms += (match.match(/"(?:[^"]|"")*"/g) ?? []).length;
			return bind(params);
		};
		stmt.step = () => {
			const more = step();
			if (more) {
				const ids = (stmt.getAsObject() as { ids?: string | null }).ids;
				cost.rows += typeof ids === "string" ? ids.split(",").length : 1;
			}
			return more;
		};
		return stmt;
	};
	index = await Index.open({ sql, storage: memoryStorage() });
	await index.sync(fileSource([{ path: join(dir, "sessions"), layout: "nested" }]));
}, 240_000);

afterAll(() => {
	index?.close();
	rmSync(dir, { recursive: true, force: true });
});

function costOf(query: string): Cost & { fallbacks: string[] } {
	cost = { queries: 0, terms: 0, rows: 0 };
	const r = index.search({ query });
	return { ...cost, fallbacks: r.fallbacks ?? [] };
}

describe("what a question costs", () => {
	it("stays within a small multiple of a plain two-word query", () => {
		const words = costOf("config timeout");
		const questions = [
			"why did the config patch keep timing out on staging",
			"why did the retry of the deploy keep timing out on the stream buffer",
			"what broke the nightly migration of the ledger journal",
			"why would the bloom filter reject the digest",
			"数据库连接超时怎么解决",
		].map((q) => ({ q, ...costOf(q) }));
		for (const c of [{ q: "config timeout", ...words }, ...questions])
			console.log(`${c.queries} FTS5 queries, ${c.terms} terms, ${c.rows} rows: ${c.q} [${c.fallbacks.join("+")}]`);
		// Bounded by design: the question as typed, its subject words in three tiers at most, and two reads per word
		// (or CJK pair) of at most DEFAULTS.wordRankScan rowids for the words fallback. Before (the tiers of the whole
		// question, then of its subject words, each a pass and a ranking, every word expanded 24 ways), on this corpus:
		// the ten-word question 6 queries of 780 terms (now 3 of 69), the thirteen-word one 6 of 1,228 (4 of 120), the
		// ledger one 22 of 1,056 (8 of 44), the bloom-filter one 16 of 948 (11 of 182); the two words 2 of 96. Since
		// 2026-12-07 a short word among others matches only the words it begins: the two words 2 of 34; and a question
		// that finds fewer sessions than asked for by its subject words gets those with most of its words next (two
		// reads a word): the ten-word question 15 of 120, the thirteen-word one 18 of 180. Terms are bounded by the
		// expansions a query's words share, four times over (as typed, the subject words' tiers, the words fallback).
		for (const c of questions) {
			const units = c.q.includes(" ") ? c.q.split(" ").length : c.q.length - 1;
			expect(c.queries, c.q).toBeLessThanOrEqual(2 * units + 4);
			expect(c.terms, c.q).toBeLessThanOrEqual(Math.max(2 * words.terms, 4 * DEFAULTS.substringQueryExpansions));
			expect(c.rows, c.q).toBeLessThanOrEqual(2 * units * DEFAULTS.wordRankScan);
		}
		// As typed, the subject words (three tiers at most) and two reads of each of its six subject words.
		expect(questions[0].queries).toBeLessThanOrEqual(3 + 2 * 6);
	});
});
