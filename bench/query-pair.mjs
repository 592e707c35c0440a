// The benchmark's queries on two indexes in one process, taken in turns (a query on A, the same on B, …), so that a
// shared machine's noise falls on both alike: what bench/agents.mjs compares the mixed index with the Pi-only one by.
// Each query's CPU time is kept beside its wall time: on a busy machine, time spent waiting for a core is not the query's.
// node bench/query-pair.mjs --a INDEX --b INDEX --reps N --project P   prints one JSON line: { a: [...], b: [...] }
import { performance } from "node:perf_hooks";
import { fileStorage, LookbackIndex, loadEngine } from "../dist/index.js";
import { namedArgs } from "./args.mjs";
import { benchQueries } from "./queries.mjs";
import { stats } from "./stats.mjs";

const args = namedArgs(process.argv.slice(2));
const reps = Number(args.reps ?? 10);
const sql = await loadEngine();
const indexes = [
	await LookbackIndex.open({ sql, storage: fileStorage(args.a) }),
	await LookbackIndex.open({ sql, storage: fileStorage(args.b) }),
];
const out = { a: [], b: [] };
for (const q of benchQueries({ project: args.project })) {
	const req = { query: q.query, since: q.since, project: q.project, limit: 10 };
	const times = [[], []];
	const cpu = [[], []];
	const found = indexes.map((index) => index.search(req).totalSessions);
	// The order turns too (A then B, B then A), so neither always runs right after the other.
	for (let i = 0; i < reps; i++)
		for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
			const c = process.cpuUsage();
			const t = performance.now();
			indexes[k].search(req);
			times[k].push(performance.now() - t);
			const used = process.cpuUsage(c);
			cpu[k].push((used.user + used.system) / 1000);
		}
	for (const [k, side] of ["a", "b"].entries())
		out[side].push({ name: q.name, sessions: found[k], ...stats(times[k]), cpuP50: stats(cpu[k]).p50 });
}
process.stdout.write(`${JSON.stringify(out)}\n`);
