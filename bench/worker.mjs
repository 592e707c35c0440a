// One measurement in a fresh process (so peak memory and cold start are its own), run by Node 20, Node 22 or Bun:
//   build  --engine wasm|native|builtin --sessions DIR --index FILE [--archive DIR]   (--archive: lookback's archive on, kept there)
//   query  --engine wasm|native|builtin --sessions DIR --index FILE --reps N --project P
// wasm: lookback's engine build; builtin: node:sqlite or bun:sqlite; native: better-sqlite3 (the baseline).
//   scan   --sessions DIR --reps N --project P
// Prints one JSON line.
import { readdirSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { chooseEngine, FileArchive, fileSource, fileStorage, LookbackIndex } from "../dist/index.js";
import { namedArgs } from "./args.mjs";
import { appendToFiles } from "./gen-corpus.mjs";
import { nativeFileStorage, nativeSql } from "./native-db.mjs";
import { benchQueries } from "./queries.mjs";
import { stats } from "./stats.mjs";

const args = namedArgs(process.argv.slice(3));
const command = process.argv[2];
// --liftoff 1: compile the engine's wasm with Liftoff only (what the CLI does for one-shot commands).
if (args.liftoff) (await import("node:v8")).setFlagsFromString("--liftoff-only");
const reps = Number(args.reps ?? 20);

/** CPU time of the main thread alone, in ms (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms); undefined elsewhere. */
function mainThreadCpuMs() {
	try {
		const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return undefined;
	}
}

function peakRssMB() {
	return process.resourceUsage().maxRSS / 1024;
}

async function engine(name) {
	return name === "native" ? nativeSql : await chooseEngine(name);
}

function storage(name, path) {
	return name === "native" ? nativeFileStorage(path) : fileStorage(path);
}

const agent = args.agent ?? "pi";

function source() {
	// --roots '[{"path":…,"layout":"claude","agent":"claude"},…]': other agents' folders, or several agents at once
	if (args.roots) return fileSource(JSON.parse(args.roots));
	const roots = [{ path: args.sessions, layout: "nested", agent }];
	// omp's store: gzipped archives of `omp gc` beside the sessions folder
	if (agent === "omp") roots.push({ path: join(args.sessions, "..", "archive", "sessions"), layout: "archive", agent });
	return fileSource(roots);
}

/** Every .jsonl under `dir` (omp keeps sub-agent transcripts in folders beside their session). */
function jsonlFiles(dir) {
	const out = [];
	for (const d of readdirSync(dir, { withFileTypes: true })) {
		if (d.isDirectory()) out.push(...jsonlFiles(join(dir, d.name)));
		else if (d.name.endsWith(".jsonl")) out.push(join(dir, d.name));
	}
	return out;
}

async function build() {
	for (const leftover of [args.index, `${args.index}-journal`, `${args.index}.locks`, args.archive])
		if (leftover) rmSync(leftover, { force: true, recursive: true });
	const t0 = performance.now();
	const sql = await engine(args.engine);
	const index = await LookbackIndex.open({ sql, storage: storage(args.engine, args.index) });
	const t1 = performance.now();
	const archive = args.archive ? new FileArchive(args.archive) : undefined;
	const cpu = process.cpuUsage();
	const main = mainThreadCpuMs();
	const report = await index.sync(archive ? { ...source(), archive } : source());
	const t2 = performance.now();
	const { user, system } = process.cpuUsage(cpu);
	const mainAfter = mainThreadCpuMs();
	// A file the engine could not index makes every ratio of the run meaningless: say so and stop, not a fast "build".
	if (report.skipped.unreadable > 0) {
		const first = report.skippedFiles?.find((f) => f.reason === "unreadable");
		throw new Error(`${args.engine}: ${report.skipped.unreadable} files unreadable, the first: ${first?.path}: ${first?.detail}`);
	}
	const st = index.stats();
	return {
		engine: args.engine,
		engineName: index.engine.build,
		initMs: t1 - t0,
		syncMs: t2 - t1,
		/** CPU time of the sync on every thread of the process (the archive compresses on libuv's pool): steadier than wall time where fsync waits on a shared disk. */
		syncCpuMs: (user + system) / 1000,
		/** Of it, the main thread's (what a second core cannot take off it). */
		syncMainCpuMs: main !== undefined && mainAfter !== undefined ? mainAfter - main : undefined,
		files: report.filesSeen,
		entries: report.entriesIndexed,
		jsonlBytes: report.bytesRead,
		textBytes: st.textChars,
		storedTextBytes: st.storedTextBytes,
		indexBytes: statSync(args.index).size,
		vocabulary: st.vocabulary,
		peakRssMB: peakRssMB(),
		warnings: report.warnings,
		skipped: report.skipped,
		...(archive
			? {
					archive: {
						...archive.stats(),
						filesKept: report.archivedFiles,
						bytesRead: report.archiveBytesRead,
						bytesWritten: report.archiveBytesWritten,
					},
				}
			: {}),
	};
}

async function query() {
	const t0 = performance.now();
	const sql = await engine(args.engine);
	const t1 = performance.now();
	const index = await LookbackIndex.open({ sql, storage: storage(args.engine, args.index) });
	const t2 = performance.now();
	const queries = benchQueries({ project: args.project });
	const first = index.search({ query: queries[0].query });
	const t3 = performance.now();
	const src = source();
	const noChange = [];
	for (let i = 0; i < 5; i++) {
		const s = performance.now();
		const r = await index.sync(src);
		noChange.push(performance.now() - s);
		if (r.filesParsed !== 0) throw new Error("a no-change sync parsed files");
	}
	// Append to 10 files, sync, check only the new bytes were read, then put the files back as they were.
	const files = jsonlFiles(args.sessions);
	if (args.append === "no") return { ...(await latenciesOf(index, queries, t0, t1, t2, t3, first, noChange, files)) };
	const before = new Map(files.map((f) => [f, statSync(f).size]));
	const appended = appendToFiles({ dir: args.sessions, count: 10, seed: 7 });
	const s = performance.now();
	const grown = await index.sync(src);
	const appendSyncMs = performance.now() - s;
	if (grown.bytesRead !== appended) throw new Error(`the sync after appending read ${grown.bytesRead} bytes, not the ${appended} appended`);
	for (const [f, size] of before) if (statSync(f).size !== size) truncateSync(f, size);
	// Bring the index back in line with the files, for the next measurement on this index.
	await index.sync(src);
	return {
		...(await latenciesOf(index, queries, t0, t1, t2, t3, first, noChange, files)),
		append: { appendedBytes: appended, bytesRead: grown.bytesRead, grown: grown.grown, ms: appendSyncMs },
	};
}

async function latenciesOf(index, queries, t0, t1, t2, t3, first, noChange, files) {
	const latencies = [];
	for (const q of queries) {
		const req = { query: q.query, since: q.since, project: q.project, limit: 10 };
		const r = index.search(req);
		const times = [];
		for (let i = 0; i < reps; i++) {
			const a = performance.now();
			index.search(req);
			times.push(performance.now() - a);
		}
		latencies.push({
			name: q.name,
			query: q.query,
			sessions: r.results.length,
			totalSessions: r.totalSessions,
			notice: r.notice,
			fallbacks: r.fallbacks ?? [],
			error: r.error,
			...stats(times),
		});
	}
	return {
		engine: args.engine,
		engineInitMs: t1 - t0,
		loadMs: t2 - t1,
		coldStartMs: t2 - t0,
		firstQueryMs: t3 - t2,
		firstQueryHits: first.results.length,
		noChangeSync: stats(noChange),
		filesWalked: files.length,
		latencies,
		peakRssMB: peakRssMB(),
	};
}

function scan() {
	const files = jsonlFiles(args.sessions);
	const queries = benchQueries({ project: args.project });
	const latencies = [];
	for (const q of queries) {
		const times = [];
		let sessions = 0;
		for (let i = 0; i < reps; i++) {
			const a = performance.now();
			sessions = 0;
			for (const f of files) {
				const lines = readFileSync(f, "utf8").split("\n");
				if (q.project && !lines[0].toLowerCase().includes(q.project.toLowerCase())) continue;
				if (lines.some((line) => line.length > 0 && q.scan(line.toLowerCase()))) sessions++;
			}
			times.push(performance.now() - a);
		}
		latencies.push({ name: q.name, query: q.query, sessions, ...stats(times) });
	}
	return { engine: "scan", latencies, peakRssMB: peakRssMB() };
}

const result = command === "build" ? await build() : command === "query" ? await query() : scan();
process.stdout.write(`${JSON.stringify(result)}\n`);
