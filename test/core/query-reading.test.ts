/**
 * One reading of a query (issue 34): syntax only where it is clearly syntax, the words around a question left out,
 * and a reading that finds nothing never winning over the plain words. The property: words taken from a session,
 * wrapped in any punctuation, brackets, flags or the words around a question, still find that session.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type LookbackIndex, parseQuery, type QueryNode } from "../../src/core/index.js";
import { fillerMask, mayBeFiller, stripFillerCjk } from "../../src/core/query/filler.js";
import { indexOf, SAMPLE } from "../helpers.js";

let index: LookbackIndex;
beforeAll(async () => {
	({ index } = await indexOf());
});

function read(query: string) {
	const p = parseQuery(query);
	if (!p.ok) throw new Error(p.error);
	return p;
}

/** A tree as a short text: words, "phrases", -excluded, (a | b). */
function show(node: QueryNode): string {
	switch (node.kind) {
		case "word":
			return node.text + (node.prefix ? "*" : "");
		case "phrase":
			return `"${node.text}"`;
		case "not":
			return `-${show(node.item)}`;
		case "or":
			return `(${node.items.map(show).join(" | ")})`;
		case "and":
			return node.items.map(show).join(" ");
	}
}

describe("reading a query", () => {
	it("counts syntax in a keyword query: capitals, quotes, prefixes, groups, a leading - before a word", () => {
		expect(show(read("timeout NOT retry").root)).toBe("timeout -retry");
		expect(show(read("retry -jitter").root)).toBe("retry -jitter");
		expect(show(read('"connect ECONNREFUSED" acquireConf*').root)).toBe('"connect ECONNREFUSED" acquireConf*');
		expect(show(read("(ECONNREFUSED OR deadlock) timeout").root)).toBe("(ECONNREFUSED | deadlock) timeout");
		expect(read("retry -jitter").reading).toBe("keywords");
		// Its plain words, for when the syntax finds nothing.
		expect(show(read("retry -jitter").words!)).toBe("retry jitter");
		expect(read("redis retry").words).toBeUndefined();
	});

	it("reads flags, brackets, paths and code as words", () => {
		expect(show(read("tail -F").root)).toBe("tail -F");
		expect(read("tail -F").root.kind).toBe("and");
		expect(show(read("wc -w notes.md").root)).toBe("wc -w notes.md");
		expect(show(read("rm -rf dist").root)).toBe("rm -rf dist");
		expect(show(read("ls -la --since").root)).toBe("ls -la --since");
		expect(show(read("dead-letter queue").root)).toBe("dead-letter queue");
		// A long keyword query is no place for a -: it is a word's punctuation there.
		expect(show(read("postgres deadlock import lock timeout retry -backoff").root)).toBe(
			"postgres deadlock import lock timeout retry -backoff",
		);
		// An unbalanced quote is punctuation, not a phrase to the end.
		expect(show(read('"unbalanced retry').root)).toBe("unbalanced retry");
	});

	it("reads a question as its words: only quotes count, the words around it are left out", () => {
		const aside = read("redis retry (not sure when it was)");
		expect(aside.reading).toBe("question");
		expect(show(aside.root)).toBe("redis retry");
		expect(aside.leftOut).toEqual(["not", "sure", "when", "it", "was"]);
		expect(show(read("can you find redis retry?").root)).toBe("redis retry");
		expect(show(read("the session where we fixed the acquireConfigPatch timeout").root)).toBe("we fixed the acquireConfigPatch timeout");
		expect(show(read("which run had ECONNREFUSED in tail -F output?").root)).toBe("had ECONNREFUSED in tail -F output");
		expect(show(read("why is it NOT retrying the webhook").root)).toBe("why is it NOT retrying the webhook");
		expect(show(read('did we fix "database is locked" (I think last week)?').root)).toBe('did we fix "database is locked"');
		expect(show(read("find the session about pgbouncer pool mode").root)).toBe("pgbouncer pool mode");
		expect(show(read("do you remember when we discussed jitter a while ago?").root)).toBe("when jitter");
	});

	it("leaves out the words around a question in Chinese, Japanese and Korean", () => {
		expect(show(read("帮我找一下数据库连接超时的会话").root)).toBe("数据库连接超时");
		expect(show(read("死锁怎么解决").root)).toBe("死锁 解决");
		expect(show(read("デッドロックについてのセッションを探して").root)).toBe("デッドロック");
		expect(show(read("데드락 세션 찾아줘").root)).toBe("데드락");
		// Without a question, the words that are filler only in a question are the subject.
		expect(stripFillerCjk("会话管理").text).not.toBe("会话管理");
		expect(show(read("会话管理").root)).toBe("会话管理");
	});

	it("keeps a word alone, and a word that is only filler in a phrase", () => {
		expect(show(read("find").root)).toBe("find");
		expect(show(read("session timeout").root)).toBe("session timeout");
		expect(show(read("the last migration run").root)).toBe("the last migration run");
		expect(fillerMask(["not", "found"])).toEqual([false, false]);
		expect(fillerMask(["not", "sure", "when", "it", "was"])).toEqual([true, true, true, true, true]);
	});

	it("refuses a question of nothing but the words around it, saying why", () => {
		const p = parseQuery("can you find it?");
		expect(p.ok).toBe(false);
		expect(!p.ok && p.error).toMatch(/^the query has only the words around a question \(can you find it\)/);
		expect(parseQuery("what did we do yesterday?").ok).toBe(false);
		expect(parseQuery('can you find "it"?').ok).toBe(true);
	});
});

describe("searching the reading", () => {
	it("finds what the question is about, not the words around it", () => {
		const plain = index.search({ query: "redis retry" }).results.map((r) => r.sessionId);
		for (const q of ["redis retry (not sure when it was)", "can you find redis retry?", "I think it was redis retry, which run?"]) {
			const r = index.search({ query: q });
			expect(r.reading, q).toBe("question");
			expect(
				r.results.map((h) => h.sessionId),
				q,
			).toEqual(plain);
			// No hit matches only the words around the question.
			for (const hit of r.results) expect(hit.snippet, q).not.toMatch(/«(find|sure|think|run)»/i);
		}
	});

	it("falls back to the plain words when the syntax finds nothing, and says which reading it used", () => {
		const r = index.search({ query: "RetryPolicy -RetryPolicy" });
		expect(r.reading).toBe("words");
		expect(r.notice).toMatch(/^read as plain words: the query's operators matched nothing/);
		expect(r.results.map((h) => h.sessionId)).toContain(SAMPLE.linear);
		const kept = index.search({ query: "RetryPolicy -decorrelated" });
		expect(kept.reading).toBe("keywords");
		expect(kept.results.map((h) => h.sessionId)).toContain(SAMPLE.linear);
	});

	it("finds a session by its words wrapped in any punctuation, brackets, flags or the words around a question", () => {
		// Two words of a user message of each sample session, found in at most three sessions and not among the words
		// a question is asked in (`search`, `run`): the session must stay among the results however they are wrapped.
		const picks: { session: string; words: string[] }[] = [];
		for (const session of Object.values(SAMPLE)) {
			const tree = index.readTree(session);
			const text = tree.messages
				.filter((e) => e.role === "user")
				.map((e) => e.text)
				.join(" ");
			const words = [...new Set(text.match(/[A-Za-z][A-Za-z]{4,}/g) ?? [])].filter(
				(w) => !mayBeFiller(w) && index.search({ query: `"${w}"`, limit: 20 }).results.length <= 3,
			);
			if (words.length >= 2) picks.push({ session, words: words.slice(0, 6) });
		}
		expect(picks.length).toBeGreaterThanOrEqual(6);
		const wraps = ["?", "!", ".", ",", ";", ":", "(", ")", "[", "]", "{", "}", "<", ">", "'", "`", "…", "…?", "):", "?)"];
		const flags = ["-F", "-w", "-rf", "-la", "--verbose", "--since", "-n"];
		const filler = [
			"can you find",
			"(not sure when it was)",
			"I think",
			"the session where",
			"which run",
			"do you remember",
			"a while ago",
			"please",
			"帮我找一下",
			"吗？",
		];
		const wrapped = fc.record({
			pick: fc.constantFrom(...picks),
			count: fc.integer({ min: 1, max: 2 }),
			before: fc.array(fc.constantFrom(...wraps), { maxLength: 2 }),
			after: fc.array(fc.constantFrom(...wraps), { maxLength: 2 }),
			extra: fc.array(fc.oneof(fc.constantFrom(...flags), fc.constantFrom(...filler)), { maxLength: 3 }),
			lead: fc.option(fc.constantFrom(...filler), { nil: undefined }),
		});
		fc.assert(
			fc.property(wrapped, ({ pick, count, before, after, extra, lead }) => {
				const words = pick.words.slice(0, count).map((w) => `${before.join("")}${w}${after.join("")}`);
				const query = [lead, ...words, ...extra].filter(Boolean).join(" ");
				const r = index.search({ query, limit: 10 });
				expect(r.error, query).toBeUndefined();
				// A fork whose hit is a message copied from its parent is folded into the parent, and named there.
				expect(
					r.results.flatMap((h) => [h.sessionId, ...h.forks.map((f) => f.sessionId)]),
					query,
				).toContain(pick.session);
			}),
			{ numRuns: 500, seed: 34 },
		);
	});
});
