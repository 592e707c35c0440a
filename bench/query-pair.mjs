// The benchmark's queries on two indexes in one process, taken in turns (a query on A, the same on B, …), so that a
// shared machine's noise falls on both alike: what bench/agents.mjs compares the mixed index with the Pi-only one by.
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
	const found = indexes.map((index) => index.search(req).totalSessions);
	for (let i = 0; i < reps; i++)
		for (const [k, index] of indexes.entries()) {
			const t = performance.now();
			index.search(req);
			times[k].push(performance.now() - t);
		}
	out.a.push({ name: q.name, sessions: found[0], ...stats(times[0]) });
	out.b.push({ name: q.name, sessions: found[1], ...stats(times[1]) });
}
process.stdout.write(`${JSON.stringify(out)}\n`);
