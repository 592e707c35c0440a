// The archive's cost on the bench corpus of one size, the figures issue 19 asks for, without the rest of `npm run bench`:
//   npm run bench:archive -- --mb 50 [--runs 3]
// Builds the wasm index of the corpus with lookback's archive off and on, back to back (`runs` pairs, alternating;
// medians), and prints the archive's size as a share of the JSONL and the indexing throughput with it on against off
// (goal >= 0.9x) as one JSON line. `npm run bench` measures the same once per corpus size in its report.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { namedArgs } from "./args.mjs";
import { benchCorpus } from "./corpus.mjs";

const args = namedArgs(process.argv.slice(2));
const mb = Number(args.mb ?? 50);
const runs = Number(args.runs ?? 3);
const sessions = resolve(join(benchCorpus(mb).dir, "sessions"));
mkdirSync(join("bench", "out"), { recursive: true });
const indexPath = join("bench", "out", `${mb}mb-archive-bench.db`);
const archiveDir = join("bench", "out", `${mb}mb-archive-bench`);

function build(withArchive) {
	const out = execFileSync(
		process.execPath,
		[
			"--max-old-space-size=8192",
			"bench/worker.mjs",
			"build",
			"--engine",
			"wasm",
			"--sessions",
			sessions,
			"--index",
			indexPath,
			...(withArchive ? ["--archive", archiveDir] : []),
		],
		{ encoding: "utf8", maxBuffer: 64 << 20 },
	);
	return JSON.parse(out.trim().split("\n").pop());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (b) => b.jsonlBytes / 1e6 / (b.syncMs / 1000);
const on = [];
const off = [];
for (let i = 0; i < runs; i++) {
	console.error(`[${mb} MB] pair ${i + 1} of ${runs}: archive off, then on…`);
	off.push(build(false));
	on.push(build(true));
}
rmSync(archiveDir, { recursive: true, force: true });
const a = on[on.length - 1].archive;
const onRate = median(on.map(rate));
const offRate = median(off.map(rate));
console.log(
	JSON.stringify({
		mb,
		runs,
		archive: { files: a.files, bytes: a.bytes, sourceBytes: a.sourceBytes, shareOfJsonl: a.bytes / a.sourceBytes },
		indexingMBps: { on: onRate, off: offRate, ratio: onRate / offRate, goal: 0.9 },
		syncCpuMs: { on: median(on.map((b) => b.syncCpuMs)), off: median(off.map((b) => b.syncCpuMs)) },
		peakRssMB: { on: median(on.map((b) => b.peakRssMB)), off: median(off.map((b) => b.peakRssMB)) },
	}),
);
