/** Random and adversarial queries: never an SQL error, never a crash, every result well formed. */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS, type LookbackIndex } from "../../src/core/index.js";
import { indexOf } from "../helpers.js";

let index: LookbackIndex;
beforeAll(async () => {
	({ index } = await indexOf());
});

const FTS_SYNTAX = [
	'"',
	"(",
	")",
	"*",
	":",
	"^",
	"-",
	"+",
	"{",
	"}",
	"NEAR",
	"OR",
	"AND",
	"NOT",
	"NEAR(",
	",",
	"'",
	"\\",
	"%",
	"_",
	"\u0000",
	"锁",
	"错误",
	"stateStore",
	"tateSto",
	" ",
];

function check(query: string): void {
	const r = index.search({ query, limit: 5 });
	expect(typeof r.query).toBe("string");
	if (r.error) expect(r.error).toMatch(/^(the query|cannot run this query)/);
	expect(r.error ?? "").not.toMatch(/SQL|sqlite|fts5:/i);
	for (const hit of r.results) {
		expect(hit.sessionId).toMatch(/\S/);
		expect(typeof hit.snippet).toBe("string");
		expect(["active", "abandoned", "compacted"]).toContain(hit.branchState);
		expect(hit.hits).toBeGreaterThanOrEqual(1);
	}
}

describe("hostile queries", () => {
	it("any unicode string", () => {
		fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), check), { numRuns: 300, seed: 42 });
	});

	it("any mix of FTS5 syntax, operators and words", () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...FTS_SYNTAX), { maxLength: 25 }).map((parts) => parts.join("")),
				check,
			),
			{ numRuns: 500, seed: 7 },
		);
	});

	it("word forms, typo corrections and fallbacks: never an error, every expansion bounded", () => {
		// Near-words of the samples (typos, inflections, CJK runs no entry has) drive every fallback.
		const near = [
			"lockd",
			"locking",
			"reserveStok",
			"sqlite3",
			"busyTimout",
			"死锁了吗",
			"连接池满了导致超时",
			"amqplb",
			"rabbitmq",
			"quorums",
			"jitters",
			"dead",
			"the",
			"why",
		];
		fc.assert(
			fc.property(
				fc
					.array(fc.oneof(fc.constantFrom(...near), fc.stringMatching(/^[a-z]{4,12}$/)), { minLength: 1, maxLength: 12 })
					.map((w) => w.join(" ")),
				(query) => {
					check(query);
					const r = index.search({ query, limit: 5 });
					// Each word expands to at most its substring matches and its forms; a typo to one word.
					const terms = (r.match ?? "").split(/ OR | AND /).length;
					expect(terms).toBeLessThanOrEqual(12 * (DEFAULTS.substringMaxExpansions + DEFAULTS.wordFormsMax + 1));
					if (r.correctedQuery) expect(r.notice).toMatch(/^showing results for /);
				},
			),
			{ numRuns: 150, seed: 11 },
		);
	});

	it("bounds pathological queries with a clear message", () => {
		const ors = Array.from({ length: 1000 }, (_, i) => `w${i % 10}`)
			.join("|")
			.replaceAll("|", " OR ")
			.slice(0, 1999)
			.replace(/ O?R?$/, "");
		expect(index.search({ query: ors }).error).toMatch(/^the query has \d+ words and phrases; the limit is 64$/);
		expect(index.search({ query: "x".repeat(10_000) }).error).toBe("the query is 10000 characters long; the limit is 2000");
		// vitest's test timeout is the hang guard for the rest
		for (const q of ["OR ".repeat(600), "(".repeat(1_900), '"'.repeat(1_999), "x* ".repeat(600), "錯".repeat(1_999)]) check(q);
	});
});
