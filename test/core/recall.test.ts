/**
 * What people remember: a word deep inside a long tool output, another form of a word, a typo, a Chinese
 * question put differently, a rare word among common ones, a session whose first prompt is a slash command.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookbackIndex, SearchResponse } from "../../src/core/index.js";
import { compileQuery, isStemmable } from "../../src/core/query/compile.js";
import { parseQuery } from "../../src/core/query/parser.js";
import { closestWords, editDistance } from "../../src/core/query/vocabulary.js";
import { saysNothing } from "../../src/core/sync/session-writer.js";
import { stem } from "../../src/core/text/stem.js";
import { readFileRange } from "../../src/node/file-range.js";
import { PLANTED, writeGradedSessions } from "../graded-sessions.js";
import { indexOf } from "../helpers.js";

let index: LookbackIndex;
let root: string;
let ids: ReturnType<typeof writeGradedSessions>["ids"];
let paths: ReturnType<typeof writeGradedSessions>["paths"];
beforeAll(async () => {
	root = mkdtempSync(join(tmpdir(), "recall-")); // kept for the whole file: snippets are read from it
	({ ids, paths } = writeGradedSessions(root));
	({ index } = await indexOf(root));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function sessionIds(r: SearchResponse): string[] {
	expect(r.error).toBeUndefined();
	return r.results.map((h) => h.sessionId);
}

describe("every word of a long entry", () => {
	it("finds an identifier deep inside a 50,000-character tool output, with a snippet around it from the file", () => {
		const r = index.search({ query: PLANTED, readRange: readFileRange });
		expect(sessionIds(r)).toEqual([ids.deep]);
		expect(r.fallbacks).toEqual(["deep"]);
		expect(r.results[0].inMiddle).toBe("read from the session file");
		expect(r.results[0].snippet).toContain(`«${PLANTED}»: ledger total 1204.50`);
	});

	it("marks the match as in the unstored middle when the file cannot be read", () => {
		const r = index.search({ query: PLANTED, readRange: () => undefined });
		expect(sessionIds(r)).toEqual([ids.deep]);
		expect(r.results[0].inMiddle).toBe("unstored");
		expect(r.results[0].snippet).toMatch(/^\[match in the unstored middle\] /);
	});

	it("finds a word split by the end of the stored head whole, and a phrase of the middle by its words", () => {
		const stored = index.db.exec(`SELECT body FROM entries WHERE type = 'toolResult' AND deep = 1`)[0];
		expect(stored).toBeDefined();
		expect(sessionIds(index.search({ query: "halfwaysplitword" }))).toEqual([ids.deep]);
		expect(sessionIds(index.search({ query: '"quota ledger reconciliation"' }))).toEqual([ids.deep]);
		// A phrase is checked by its words only in a middle: words of it far apart match too (said in the README).
		expect(sessionIds(index.search({ query: '"reconciliation ledger"' }))).toEqual([ids.deep]);
	});

	it("keeps each entry's byte range in its file", () => {
		const rows = index.db.exec(
			`SELECT e.entry_id, e.off, e.len FROM entries e JOIN sessions s ON s.id = e.session WHERE s.session_id = '${ids.deep}'`,
		)[0].values;
		const file = readFileSync(paths.deep);
		expect(rows.length).toBe(4);
		for (const [id, off, len] of rows) {
			const line = JSON.parse(file.subarray(off as number, (off as number) + (len as number)).toString("utf8"));
			expect(line.id).toBe(id);
		}
	});
});

describe("word forms", () => {
	it("stems English words the Porter way", () => {
		for (const w of ["lock", "locks", "locked", "locking"]) expect(stem(w)).toBe("lock");
		expect(stem("backfilling")).toBe(stem("backfill"));
		expect(stem("connections")).toBe(stem("connection"));
		expect(stem("reservestock")).toBe("reservestock");
		expect(stem("ponies")).toBe("poni");
		expect(stem("sql3")).toBe("sql3");
	});

	it("never stems identifiers, quoted words or prefixes", () => {
		expect(isStemmable("locking")).toBe(true);
		expect(isStemmable("reserveStock")).toBe(false);
		expect(isStemmable("SQLite")).toBe(false);
		expect(isStemmable("v2")).toBe(false);
		const forms = () => ["lock", "locked"];
		const compile = (q: string) => {
			const p = parseQuery(q);
			if (!p.ok) throw new Error(p.error);
			const c = compileQuery(p.root, () => [], { forms });
			if (!c.ok) throw new Error(c.error);
			return c.query.match;
		};
		expect(compile("locking")).toBe('("locking" OR "lock" OR "locked")');
		expect(compile('"locking"')).toBe('"locking"');
		expect(compile("locking*")).toBe('"locking"*');
		expect(compile("lockingState")).toBe('"lockingstate"');
	});

	it("matches other forms after the exact form", () => {
		expect(sessionIds(index.search({ query: "advisory locking" }))).toEqual([ids.lock]);
		expect(sessionIds(index.search({ query: "locking" }))).toEqual([ids.locking, ids.lock]);
		expect(sessionIds(index.search({ query: '"locking"' }))).toEqual([ids.locking]);
		expect(sessionIds(index.search({ query: "backfilling" }))).toEqual([ids.locking]);
	});
});

describe("typos", () => {
	it("counts edits with transpositions", () => {
		expect(editDistance("pgbouncer", "pgbouncer", 2)).toBe(0);
		expect(editDistance("pgbouncre", "pgbouncer", 2)).toBe(1);
		expect(editDistance("pgbounser", "pgbouncer", 2)).toBe(1);
		expect(editDistance("pgbncr", "pgbouncer", 2)).toBe(3);
	});

	it("offers the closest vocabulary words", () => {
		expect(closestWords(index.db, "pgbounser")).toEqual(["pgbouncer"]);
		expect(closestWords(index.db, "zephyrquotaledgermismach")).toEqual(["zephyrquotaledgermismatch"]);
		expect(closestWords(index.db, "xqzvvwk")).toEqual([]);
	});

	it("shows results for the corrected query and keeps the original", () => {
		const r = index.search({ query: "pgbounser replica" });
		expect(r.query).toBe("pgbounser replica");
		expect(r.correctedQuery).toBe("pgbouncer replica");
		expect(r.notice).toMatch(/^showing results for "pgbouncer replica": nothing has "pgbounser"/);
		expect(sessionIds(r)).toEqual([ids.pgbouncer]);
		expect(sessionIds(index.search({ query: "ZephyrQuotaLedgerMismach" }))).toEqual([ids.deep]);
		// A quoted word is taken as typed: as nothing has it, its plain reading is corrected, and the reply says so.
		const quoted = index.search({ query: '"pgbounser"' });
		expect(quoted.reading).toBe("words");
		expect(quoted.notice).toMatch(/^read as plain words: .*; showing results for "pgbouncer"/);
		expect(sessionIds(quoted)).toEqual([ids.pgbouncer]);
	});

	it("corrects the parts of an identifier that match nothing, and keeps the parts (and identifiers) that match", () => {
		const snake = index.search({ query: "PGBOUNCER_POOL_MODDE" });
		expect(snake.correctedQuery).toBe("PGBOUNCER_POOL_mode");
		expect(snake.notice).toMatch(/^showing results for "PGBOUNCER_POOL_mode": nothing has "PGBOUNCER_POOL_MODDE"/);
		expect(sessionIds(snake)).toEqual([ids.pgbouncer]);
		const path = index.search({ query: "deploy/pgbouncr.ini" });
		expect(path.correctedQuery).toBe("deploy/pgbouncer.ini");
		expect(sessionIds(path)).toEqual([ids.pgbouncer]);
		const typed = index.search({ query: "PGBOUNCER_POOL_MODE" });
		expect(typed.correctedQuery).toBeUndefined();
		expect(sessionIds(typed)).toEqual([ids.pgbouncer]);
	});
});

describe("Chinese paraphrases", () => {
	it("falls back to the character pairs of a run no entry has, ranked by how many an entry has", () => {
		const r = index.search({ query: "数据库连接池满了导致超时" });
		expect(sessionIds(r)[0]).toBe(ids.chinesePool);
		expect(r.fallbacks).toEqual(["cjk-pairs"]);
		expect(r.notice).toMatch(/ranked by how many of its character pairs they have/);
		expect(sessionIds(index.search({ query: "连接池耗尽" }))).toEqual([ids.chinesePool]);
	});
});

describe("ranking of the most-of-the-words fallback", () => {
	it("puts one rare word above several common ones, stably as question words are added", () => {
		for (const q of [
			"pgbouncer pool mode for staging",
			"what was the pgbouncer pool mode for staging",
			"how did we set the pgbouncer pool mode for staging again",
		]) {
			const r = index.search({ query: q });
			expect(r.fallbacks, q).toEqual(["words"]);
			expect(sessionIds(r).slice(0, 2), q).toEqual([ids.pgbouncer, ids.refactor]);
		}
	});

	it("ranks a session with several matching entries above one with a single match of the same words", () => {
		expect(sessionIds(index.search({ query: "pool tests staging" }))[0]).toBe(ids.refactor);
	});
});

describe("titles", () => {
	it("knows a prompt that says nothing: a slash command alone, an attachment alone, nothing", () => {
		for (const p of ["/mode", "/model gpt-5", "[image]", "", "  \n", "[image]\n[image]"]) expect(saysNothing(p), p).toBe(true);
		for (const p of ["/fix the parser when the header is missing", "fix it", "look at this [image]", "mode"])
			expect(saysNothing(p), p).toBe(false);
	});

	it("skips a first prompt that is only a slash command for the preview", () => {
		const hit = index.search({ query: "uploader" }).results[0];
		expect(hit.sessionId).toBe(ids.slash);
		expect(hit.firstPrompt).toBe("fix the flaky retry test in the uploader");
	});
});
