// npm run bench:questions [-- --mb 500 --reps 7 --engine wasm|native]
// Where the time of a question goes: each query class of queries.mjs on the benchmark's index (bench/out/<mb>mb-wasm.db,
// built by npm run bench, or built here), timed in CPU time of this process (less moved by a shared machine than
// wall time), with what it ran: the FTS5 queries, the terms they look up (BM25 counts each term's documents), the
// rows they return, and the five statements that cost most. Each class also as a ratio to the plain two-word query.
// Then the questions as people type them (queries.mjs, typedQuestions): their p50 and p95 against the two-word query.
// Prints a Markdown table; writes bench/out/question-cost-<mb>mb.json.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chooseEngine, fileStorage, LookbackIndex } from "../dist/index.js";
import { namedArgs } from "./args.mjs";
import { benchCorpus, mostCommonProject } from "./corpus.mjs";
import { nativeFileStorage, nativeSql } from "./native-db.mjs";
import { benchQueries, REFERENCE, typedQuestions } from "./queries.mjs";

const args = namedArgs(process.argv.slice(2));
const mb = Number(args.mb ?? 50);
const reps = Number(args.reps ?? 7);
const engine = args.engine ?? "wasm";
const { dir } = benchCorpus(mb);
const sessions = resolve(dir, "sessions");
const indexPath = join("bench", "out", `${mb}mb-wasm.db`);
mkdirSync(join("bench", "out"), { recursive: true });
const build = () =>
	execFileSync(process.execPath, ["bench/worker.mjs", "build", "--engine", "wasm", "--sessions", sessions, "--index", indexPath], {
		stdio: ["ignore", "ignore", "inherit"],
	});
if (!existsSync(indexPath)) build();

const cpu = () => {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
};
const sql = engine === "native" ? nativeSql : await chooseEngine("wasm");
const storage = engine === "native" ? nativeFileStorage(indexPath) : fileStorage(indexPath);

// Every statement the core prepares: its CPU time until freed, and for an FTS5 MATCH its terms and rows.
let statements = new Map();
let counting = false;
const prepare = sql.Database.prototype.prepare;
sql.Database.prototype.prepare = function (text, ...rest) {
	const started = cpu();
	const stmt = prepare.call(this, text, ...rest);
	if (!counting) return stmt;
	const key = text
		.replace(/\s+/g, " ")
		.replace(/IN \([\d,]+\)/g, "IN (…)")
		.slice(0, 110);
	const fts = /entries_(fts|deep) MATCH/.test(text);
	let terms = 0;
	let rows = 0;
	const bind = stmt.bind.bind(stmt);
	stmt.bind = (params) => {
		if (fts) terms += (String(params?.[0] ?? "").match(/"(?:[^"]|"")*"/g) ?? []).length;
		return bind(params);
	};
	const step = stmt.step.bind(stmt);
	stmt.step = () => {
		const more = step();
		if (more && fts) {
			const ids = stmt.getAsObject().ids;
			rows += typeof ids === "string" ? ids.split(",").length : 1;
		}
		return more;
	};
	const free = stmt.free.bind(stmt);
	stmt.free = () => {
		const s = statements.get(key) ?? { n: 0, ms: 0, fts, terms: 0, rows: 0 };
		s.n++;
		s.ms += cpu() - started;
		s.terms += terms;
		s.rows += rows;
		statements.set(key, s);
		return free();
	};
	return stmt;
};

let index = await LookbackIndex.open({ sql, storage });
if (index.overview().sessions === 0) {
	// An index of an older schema is set aside on opening: build it again.
	index.close();
	build();
	index = await LookbackIndex.open({ sql, storage: engine === "native" ? nativeFileStorage(indexPath) : fileStorage(indexPath) });
}
const results = [];
for (const q of [...benchQueries({ project: mostCommonProject(sessions) }), ...typedQuestions()]) {
	const request = { query: q.query, since: q.since, project: q.project, limit: 10 };
	const response = index.search(request);
	const times = [];
	statements = new Map();
	for (let i = 0; i < reps; i++) {
		counting = i === 0;
		const t = cpu();
		index.search(request);
		times.push(cpu() - t);
	}
	counting = false;
	const all = [...statements.values()];
	results.push({
		name: q.name,
		query: q.query,
		fallbacks: response.fallbacks ?? [],
		typed: q.name.startsWith("typed:"),
		found: response.results.length,
		p50: times.sort((a, b) => a - b)[Math.floor(reps / 2)],
		p95: times[Math.min(reps - 1, Math.ceil(0.95 * reps) - 1)],
		ftsQueries: all.filter((s) => s.fts).reduce((n, s) => n + s.n, 0),
		terms: all.reduce((n, s) => n + s.terms, 0),
		rows: all.reduce((n, s) => n + s.rows, 0),
		top: [...statements]
			.sort((a, b) => b[1].ms - a[1].ms)
			.slice(0, 5)
			.map(([sql, s]) => ({ sql, ...s })),
	});
}
index.close();

const reference = results.find((r) => r.name === REFERENCE);
const ref = reference?.p50 ?? 1;
const typed = results.filter((r) => r.typed);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f1 = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const lines = [
	`Query classes on the ${mb} MB index, ${engine} engine: CPU ms p50 of ${reps} runs, against \`${results.find((r) => r.name === REFERENCE)?.query}\`, and what one run of each ran`,
	"",
	"| class | fallbacks | sessions | CPU p50 ms | p95 | × two words | FTS5 queries | terms | rows | costliest statement (ms of one run) |",
	"|---|---|---|---|---|---|---|---|---|---|",
	...results.map(
		(r) =>
			`| ${r.name} \`${r.query}\` | ${r.fallbacks.join("+") || "—"} | ${r.found} | ${f1(r.p50)} | ${f1(r.p95)} | ${(r.p50 / ref).toFixed(2)}× | ${r.ftsQueries} | ${r.terms} | ${r.rows} | ${f1(r.top[0]?.ms ?? 0)}: ${(r.top[0]?.sql ?? "").replace(/\|/g, "\\|").slice(0, 70)}… |`,
	),
	"",
	`Typed questions (${typed.length}): median p50 ${f1(median(typed.map((r) => r.p50)))} ms (${(median(typed.map((r) => r.p50)) / ref).toFixed(2)}× two words), worst p95 ${f1(Math.max(...typed.map((r) => r.p95)))} ms (${(Math.max(...typed.map((r) => r.p95)) / (reference?.p95 ?? 1)).toFixed(2)}× the two words' p95 ${f1(reference?.p95 ?? 0)} ms); ${typed.filter((r) => r.found === 0).length} found nothing`,
];
console.log(lines.join("\n"));
writeFileSync(
	join("bench", "out", `question-cost-${mb}mb${engine === "wasm" ? "" : `-${engine}`}.json`),
	`${JSON.stringify(results, null, 2)}\n`,
);
