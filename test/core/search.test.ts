import { beforeAll, describe, expect, it } from "vitest";
import type { LookbackIndex, SearchResponse } from "../../src/core/index.js";
import { readFileRange } from "../../src/node/file-range.js";
import { indexOf, SAMPLE } from "../helpers.js";

let index: LookbackIndex;
beforeAll(async () => {
	({ index } = await indexOf());
});

function ids(response: SearchResponse): string[] {
	expect(response.error).toBeUndefined();
	return response.results.map((r) => r.sessionId);
}

describe("search", () => {
	it("finds a word and marks it in the snippet", () => {
		const r = index.search({ query: "amqplib" });
		expect(ids(r)).toEqual([SAMPLE.branched]);
		expect(r.results[0].snippet).toContain("«amqplib»");
	});

	it("ANDs words", () => {
		const all = index.search({ query: "busyTimeout WAL" });
		expect(ids(all)).toEqual([SAMPLE.bash]);
		expect(all.notice).toBeUndefined();
	});

	it("falls back to any of the words when no session has them all, and says so", () => {
		const some = index.search({ query: "why did we pick sql.js" });
		expect(some.notice).toBe("no session has every word; ranked by the words they have, rare words weighing most");
		expect(some.fallbacks).toEqual(["words"]);
		expect(ids(some)[0]).toBe(SAMPLE.decision);
		// Quoted, the words must be there as written: no session has "snorkel", so the plain words answer, and say so.
		const strict = index.search({ query: '"busyTimeout" "snorkel"' });
		expect(strict.reading).toBe("words");
		expect(strict.notice).toMatch(/^read as plain words: the query's operators matched nothing/);
		expect(ids(strict)).toEqual([SAMPLE.bash]);
	});

	it("ORs with OR", () => {
		expect(ids(index.search({ query: "amqplib OR deployctl" })).sort()).toEqual([SAMPLE.branched, SAMPLE.v1, SAMPLE.v2].sort());
		expect(index.search({ query: "amqplib deployctl" }).notice).toMatch(/no session has every word/);
	});

	it("excludes with NOT and -word", () => {
		const both = ids(index.search({ query: "RetryPolicy" }));
		expect(both).toContain(SAMPLE.linear);
		const withoutJitter = ids(index.search({ query: "RetryPolicy NOT decorrelated" }));
		const dash = ids(index.search({ query: "RetryPolicy -decorrelated" }));
		expect(withoutJitter).toEqual(dash);
		expect(withoutJitter).toContain(SAMPLE.linear);
	});

	it("matches a quoted phrase only in order", () => {
		expect(ids(index.search({ query: '"database is locked"' }))).toEqual([SAMPLE.bash]);
		const unordered = index.search({ query: '"locked is database"' });
		expect(unordered.reading).toBe("words");
		expect(ids(unordered)[0]).toBe(SAMPLE.bash);
		expect(index.search({ query: '"database is locked"' }).reading).toBe("keywords");
	});

	it("matches a prefix", () => {
		expect(ids(index.search({ query: "amqp*" }))).toEqual([SAMPLE.branched]);
	});

	it("finds an identifier by a substring of it", () => {
		const r = index.search({ query: "tateSto" });
		expect(ids(r)).toContain(SAMPLE.linear);
		expect(r.results[0].snippet).toMatch(/«stateStore»/i);
	});

	it("matches a quoted word exactly, without substrings", () => {
		expect(index.search({ query: '"stateStore"' }).reading).toBe("keywords");
		// Nothing has the fragment as a word: its plain reading (which expands it) answers, and says so.
		const quoted = index.search({ query: '"tateSto"' });
		expect(quoted.reading).toBe("words");
		expect(ids(quoted)).toContain(SAMPLE.linear);
	});

	it("finds 1-, 2- and 3-character Chinese", () => {
		expect(ids(index.search({ query: "锁" }))).toEqual([SAMPLE.chinese]);
		expect(ids(index.search({ query: "错误" }))).toEqual([SAMPLE.chinese]);
		expect(ids(index.search({ query: "数据库" }))).toEqual([SAMPLE.chinese]);
		expect(ids(index.search({ query: "死锁" }))).toEqual([SAMPLE.chinese]);
		expect(index.search({ query: "错误" }).results[0].snippet).toContain("«错误»");
	});

	it("filters by since and until", () => {
		const all = ids(index.search({ query: "sql OR sqlite OR retry", limit: 50 }));
		const late = ids(index.search({ query: "sql OR sqlite OR retry", since: "2026-11-01", limit: 50 }));
		const early = ids(index.search({ query: "sql OR sqlite OR retry", until: "2026-10-08", limit: 50 }));
		expect(late.length).toBeGreaterThan(0);
		expect(early.length).toBeGreaterThan(0);
		for (const id of late) expect([SAMPLE.compaction, SAMPLE.decision, SAMPLE.cliDates]).toContain(id);
		for (const id of early) expect(late).not.toContain(id);
		expect(all.length).toBeGreaterThanOrEqual(late.length + early.length);
		const now = Date.parse("2026-11-21T00:00:00Z");
		expect(ids(index.search({ query: "parseWhen", since: "3d", now }))).toEqual([SAMPLE.cliDates]);
		expect(ids(index.search({ query: "parseWhen", since: "12h", now }))).toEqual([]);
	});

	it("filters by project (cwd or name substring)", () => {
		expect(ids(index.search({ query: "RetryPolicy", project: "inventory" }))).toEqual([]);
		expect(ids(index.search({ query: "deadlock", project: "inventory-api" }))).toEqual([SAMPLE.chinese]);
		expect(ids(index.search({ query: "busyTimeout", project: "Storage engine" }))).toEqual([]);
		expect(ids(index.search({ query: "native", project: "Storage engine" }))).toEqual([SAMPLE.decision]);
	});

	it("filters by role", () => {
		const inTool = index.search({ query: "SQLITE_BUSY", role: "tool" });
		expect(ids(inTool)).toEqual([SAMPLE.bash]);
		expect(inTool.results[0].role).toBe("tool");
		expect(ids(index.search({ query: "no-floating-promises", role: "user" }))).toEqual([]);
		expect(ids(index.search({ query: "no-floating-promises", role: "meta" }))).toEqual([SAMPLE.bash]);
	});

	it("never indexes thinking blocks or custom entry data", () => {
		expect(ids(index.search({ query: "snorkelwaffle" }))).toEqual([]);
		expect(ids(index.search({ query: "INV-2291" }))).toEqual([]);
	});

	it("stores a long tool result as its head and tail and finds every word of its middle", () => {
		expect(ids(index.search({ query: "NOTES_FTS_SCHEMA_V4" }))).toEqual([SAMPLE.decision]);
		expect(ids(index.search({ query: "legacySnippetsV0Cleanup" }))).toEqual([SAMPLE.decision]);
		const middle = index.search({ query: "rebuildTrigramShadowTable" });
		expect(ids(middle)).toEqual([SAMPLE.decision]);
		expect(middle.fallbacks).toEqual(["deep"]);
		// Without the session file at hand, the hit says where the match is.
		expect(middle.results[0].inMiddle).toBe("unstored");
		expect(middle.results[0].snippet).toMatch(/^\[match in the unstored middle\] /);
		const read = index.search({ query: "rebuildTrigramShadowTable", readRange: readFileRange });
		expect(read.results[0].inMiddle).toBe("read from the session file");
		expect(read.results[0].snippet).toMatch(/«rebuildTrigramShadowTable»/);
	});

	it("marks hits on abandoned branches and compacted-away history", () => {
		const abandoned = index.search({ query: "RabbitMQ" }).results[0];
		expect(abandoned.branchState).toBe("abandoned");
		const compacted = index.search({ query: "47813" }).results[0];
		expect(compacted.sessionId).toBe(SAMPLE.compaction);
		expect(compacted.branchState).toBe("compacted");
		expect(index.search({ query: '"Cannot use a pool after calling end"' }).results[0].branchState).toBe("active");
	});

	it("collapses a fork into its parent when both match the same entry", () => {
		const r = index.search({ query: "webhookClient" });
		const sessions = ids(r);
		expect(sessions).toContain(SAMPLE.linear);
		expect(sessions).not.toContain(SAMPLE.fork);
		const parent = r.results.find((h) => h.sessionId === SAMPLE.linear)!;
		expect(parent.forks.map((f) => f.sessionId)).toEqual([SAMPLE.fork]);
		// Text only in the fork is the fork's own result.
		expect(ids(index.search({ query: '"decorrelated jitter"' }))).toEqual([SAMPLE.fork]);
	});

	it("indexes summaries, labels, session names, custom messages and v2 hook messages", () => {
		expect(ids(index.search({ query: '"restart storm"', role: "summary" }))).toEqual([SAMPLE.compaction]);
		expect(ids(index.search({ query: "removeOnFail", role: "summary" }))).toEqual([SAMPLE.branched]);
		expect(ids(index.search({ query: "dlq-design", role: "meta" }))).toEqual([SAMPLE.branched]);
		expect(ids(index.search({ query: "OPS-1187" }))).toEqual([SAMPLE.v1]);
		expect(ids(index.search({ query: '"Working tree dirty"' }))).toEqual([SAMPLE.v2]);
		expect(ids(index.search({ query: "Retry jitter", role: "meta" }))).toEqual([SAMPLE.fork]);
	});

	it("counts hits per session and groups by session", () => {
		const r = index.search({ query: "RabbitMQ" });
		expect(r.results).toHaveLength(1);
		expect(r.results[0].hits).toBeGreaterThan(1);
	});

	it("ranks a question no session answers whole in a fixed order, by the words each has", () => {
		const r = index.search({ query: "retry queue", limit: 20 });
		expect(r.fallbacks).toEqual(["words"]);
		// By the weight of the words a session's best entries have (word-ranking.ts): the sessions with many
		// matching entries first, then the two with a single one.
		expect(r.results.map((h) => [h.sessionId, h.entryId, h.hits])).toEqual([
			[SAMPLE.branched, "5a373503", 17],
			[SAMPLE.fork, "b7540c0b", 18],
			[SAMPLE.linear, "0dc8b9ac", 11],
			[SAMPLE.bash, "3bc3d43b", 1],
			[SAMPLE.chinese, "6f257938", 1],
		]);
	});

	it("gives a clear message for a query with nothing to search", () => {
		expect(index.search({ query: "   " }).error).toBe("the query has no words to search for");
		expect(index.search({ query: "-amqplib" }).error).toMatch(/outside NOT/);
	});

	it("throws a clear error for a bad time filter", () => {
		expect(() => index.search({ query: "x", since: "last tuesday" })).toThrow(/cannot read the time "last tuesday"/);
	});

	it("answers hostile queries without an SQL error", () => {
		const hostile = [
			'"unbalanced',
			"NEAR(",
			"NEAR(a b, 3)",
			"*",
			"-",
			":",
			"OR",
			"AND",
			"NOT",
			"a OR",
			"OR OR OR",
			"((((",
			"))))",
			"col:value",
			"^start",
			"'single'",
			"\\",
			"%_%",
			"\u0000",
			'""',
			'"" OR ""',
			"a NOT",
			"NOT NOT amqplib",
			"{user}: amqplib",
			"amqplib*:*",
			"🙂",
			"x".repeat(5000),
			`${"(".repeat(200)}amqplib`,
		];
		for (const q of hostile) {
			const r = index.search({ query: q });
			if (r.error) expect(r.error).toMatch(/^(the query|cannot run)/);
			else for (const hit of r.results) expect(typeof hit.sessionId).toBe("string");
		}
		expect(ids(index.search({ query: "NEAR(amqplib" }))).toEqual([SAMPLE.branched]);
	});

	it("says why a reply is empty: the filter that hid how many matches, the words no session has, what to try", () => {
		const hidden = index.search({ query: "RabbitMQ", since: "2026-11-01" });
		expect(hidden.results).toEqual([]);
		expect(hidden.why).toMatchObject({ hiddenBy: [{ filter: "since", value: "2026-11-01", sessions: 1 }], missing: [] });
		expect(hidden.why?.message).toBe("since 2026-11-01 hid 1 session that matches");
		// Two filters: each alone is tried without the other.
		const two = index.search({ query: "RabbitMQ", since: "2026-11-01", project: "webshop" });
		expect(two.why?.hiddenBy).toEqual([{ filter: "since", value: "2026-11-01", sessions: 1 }]);
		const both = index.search({ query: "RabbitMQ", until: "2026-10-01", project: "inventory" });
		expect(both.why?.hiddenBy.map((h) => h.filter).sort()).toEqual([]);
		expect(both.why?.withoutFilters).toBe(1);
		const excluded = index.search({ query: "amqplib", exclude: () => true });
		expect(excluded.why?.hiddenBy).toEqual([{ filter: "exclude", value: "the calling session's own messages", sessions: 1 }]);
		const missing = index.search({ query: '"RabbitMQ" "zzqxv"' });
		expect(missing.results.length).toBe(1); // the plain words find it
		const none = index.search({ query: "zzqxv qqwwvv" });
		expect(none.why).toMatchObject({ hiddenBy: [], missing: ["zzqxv", "qqwwvv"], tryQueries: [] });
		expect(none.why?.message).toBe('no session has "zzqxv", "qqwwvv"');
		const oneMissing = index.search({ query: "amqplib zzqxv", role: "tool" });
		expect(oneMissing.why?.hiddenBy).toEqual([{ filter: "role", value: "tool", sessions: 1 }]);
		expect(index.search({ query: "amqplib" }).why).toBeUndefined();
	});

	it("ranks a very common query among its newest matches only, and says so", () => {
		const full = index.search({ query: "the", limit: 50 });
		expect(full.rankedNewest).toBeUndefined();
		const windowed = index.search({ query: "the", limit: 50, rankWindow: 5 });
		expect(windowed.rankedNewest).toBe(5);
		const hits = windowed.results.reduce((n, r) => n + r.hits, 0);
		expect(hits).toBeLessThanOrEqual(6);
		const newest = index.db
			.exec(
				`SELECT DISTINCT s.session_id FROM (SELECT rowid AS r FROM entries_fts WHERE entries_fts MATCH '"the"' ORDER BY rowid DESC LIMIT 5) m JOIN entries e ON e.id = m.r JOIN sessions s ON s.id = e.session`,
			)[0]
			.values.flat();
		expect(windowed.results.map((r) => r.sessionId).sort()).toEqual([...newest].sort());
		// A filter that empties the window falls back to ranking every match that passes it.
		const filtered = index.search({ query: "the", until: "2026-10-02", limit: 50, rankWindow: 5 });
		expect(filtered.results.map((r) => r.sessionId)).toEqual([SAMPLE.v1]);
	});
});
