// The benchmark's corpus of one size: bench/corpus/<mb>mb (or <mb>mb-omp), generated once and kept.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateCorpus } from "./gen-corpus.mjs";

export function benchCorpus(
	mb,
	{ seed = 42, agent = "pi", dir = join("bench", "corpus", agent === "pi" ? `${mb}mb` : `${mb}mb-${agent}`) } = {},
) {
	const summaryPath = join(dir, "corpus.json");
	if (existsSync(summaryPath)) {
		const s = JSON.parse(readFileSync(summaryPath, "utf8"));
		if (s.seed === seed && (s.mb ?? s.targetMb) === mb && (s.agent ?? "pi") === agent) return { dir, summary: s };
	}
	const t = performance.now();
	const summary = generateCorpus({ out: dir, mb, seed, agent });
	console.error(`generated ${mb} MB corpus in ${((performance.now() - t) / 1000).toFixed(1)} s`);
	return { dir, summary };
}

/** The project with the most session files: the filter of the benchmark's project query. */
export function mostCommonProject(sessions) {
	const counts = readdirSync(sessions)
		.map((d) => [d, readdirSync(join(sessions, d)).length])
		.sort((a, b) => b[1] - a[1]);
	return counts[0][0]
		.replace(/^--home-dev-/, "")
		.replace(/^-/, "")
		.replace(/--$/, "");
}
