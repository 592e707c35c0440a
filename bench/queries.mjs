// The fixed discovery query set of the benchmark, with the plain-scan predicate that stands for each query
// (case-insensitive substring tests on raw JSONL lines: what a scan of the files does).

const has = (w) => (line) => line.includes(w.toLowerCase());
const all =
	(...ps) =>
	(line) =>
		ps.every((p) => p(line));
const any =
	(...ps) =>
	(line) =>
		ps.some((p) => p(line));
const not = (p) => (line) => !p(line);

/** The class the others are compared with: a plain two-word query. */
export const REFERENCE = "plain two words";

/** @param {{project: string}} ctx */
export function benchQueries(ctx) {
	return [
		{ name: "rare word", query: "zanzibarRetryPolicy", scan: has("zanzibarRetryPolicy") },
		{ name: "rare identifier", query: "DHTDynamicResolverV2", scan: has("DHTDynamicResolverV2") },
		{ name: "common word", query: "error", scan: has("error") },
		{ name: "identifier", query: "acquireConfigPatch", scan: has("acquireConfigPatch") },
		{ name: "identifier substring", query: "quireConfigPat", scan: has("quireConfigPat") },
		{ name: "two-term AND", query: "acquireConfigPatch timeout", scan: all(has("acquireConfigPatch"), has("timeout")) },
		{ name: "phrase", query: '"connect ECONNREFUSED"', scan: has("connect ECONNREFUSED") },
		{ name: "OR", query: "ECONNREFUSED OR deadlock", scan: any(has("ECONNREFUSED"), has("deadlock")) },
		{ name: "NOT", query: "timeout NOT retry", scan: all(has("timeout"), not(has("retry"))) },
		{ name: "prefix", query: "acquireConf*", scan: has("acquireConf") },
		{ name: "Chinese 2 chars", query: "错误", scan: has("错误") },
		{ name: "Chinese 3 chars", query: "数据库", scan: has("数据库") },
		{ name: "rare Chinese", query: "死锁检测", scan: has("死锁检测") },
		{ name: "common word, since 30d", query: "error", since: "30d", scan: has("error") },
		{ name: "identifier, project", query: "acquireConfigPatch", project: ctx.project, scan: has("acquireConfigPatch") },
		{ name: "word forms", query: "retried timeouts", scan: all(has("retr"), has("timeout")) },
		{ name: "typo", query: "acquireConfigPach", scan: has("acquireConfigPatch") },
		{ name: "typo, word", query: "deadlok", scan: has("deadlock") },
		{
			name: "question, most of the words",
			query: "why did the config patch keep timing out on staging",
			scan: any(has("config"), has("patch"), has("timing"), has("staging")),
		},
		{ name: "Chinese paraphrase", query: "数据库连接超时怎么解决", scan: any(has("数据库"), has("超时")) },
		// The reference every other class is measured against (× two words in the tables): two plain words.
		{ name: REFERENCE, query: "config timeout", scan: all(has("config"), has("timeout")) },
		{
			name: "long question",
			query: "why did the retry of the deploy keep timing out on the stream buffer",
			scan: any(has("retry"), has("deploy"), has("timing"), has("stream"), has("buffer")),
		},
	];
}

/**
 * Questions as people and agents type them (issue 34): the benchmark's words wrapped in the words around a
 * question, an aside in brackets, a flag, punctuation. `npm run bench:questions` times them against REFERENCE.
 */
export function typedQuestions() {
	return [
		{ name: "typed: can you find …?", query: "can you find config timeout?" },
		{ name: "typed: aside in brackets", query: "config timeout (not sure when it was)" },
		{ name: "typed: the session where", query: "the session where we fixed the acquireConfigPatch timeout" },
		{ name: "typed: I think …", query: "I think it was ECONNREFUSED or a deadlock, which run?" },
		{ name: "typed: a flag", query: "tail -F error log" },
		{ name: "typed: a path and code", query: "did we change retry() in src/config.ts?" },
		{ name: "typed: Chinese", query: "帮我找一下数据库连接超时的会话" },
	];
}
