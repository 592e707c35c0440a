/**
 * An index of the benchmark's generated corpus, built once and kept in node_modules/.cache/lookback-test/: at
 * the sizes the served-mode test needs, generating and indexing take minutes, opening the kept file none. The
 * key names what the file depends on: the generator's source, the schema version, size and seed; a fresh clone
 * builds it once, and a changed generator or schema builds it again (the stale file is removed).
 */

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { SCHEMA_VERSION } from "../../src/core/index.js";
import { openNodeIndex } from "../../src/node/open.js";

const ROOT = join(import.meta.dirname, "..", "..");
const CACHE = join(ROOT, "node_modules", ".cache", "lookback-test");
const GENERATOR = join(ROOT, "bench", "gen-corpus.mjs");
const PREFIX = "generated-";

export interface GeneratedIndex {
	path: string;
	/** How long making it took, when it was made by this call. */
	built?: { generateMs: number; indexMs: number };
}

/** The folders of builds whose process is gone (a run stopped halfway): hundreds of MB of generated sessions each. */
function removeLeftovers(): void {
	for (const f of readdirSync(CACHE)) {
		const pid = /^building-(\d+)$/.exec(f)?.[1];
		if (pid && !isRunning(Number(pid))) rmSync(join(CACHE, f), { recursive: true, force: true });
	}
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

export async function generatedIndex(mb: number, seed = 42): Promise<GeneratedIndex> {
	const generator = createHash("sha256").update(readFileSync(GENERATOR)).digest("hex").slice(0, 12);
	const version = `-schema${SCHEMA_VERSION}-gen${generator}.db`;
	const name = `${PREFIX}${mb}mb-seed${seed}${version}`;
	const path = join(CACHE, name);
	if (existsSync(path)) return { path };
	mkdirSync(CACHE, { recursive: true });
	removeLeftovers();
	// Made in a folder of its own and renamed into place: a run stopped halfway, or two at once, never leave a partial file under the name.
	const work = join(CACHE, `building-${process.pid}`);
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work);
	try {
		const t0 = performance.now();
		generateCorpus({ out: work, mb, seed });
		const t1 = performance.now();
		const indexPath = join(work, "index.db");
		const opened = await openNodeIndex({ indexPath, sessionsDirs: [join(work, "sessions")], onlySessionsDirs: true, env: {} });
		try {
			await opened.index.sync(opened.source);
		} finally {
			opened.index.close();
		}
		const t2 = performance.now();
		renameSync(indexPath, path);
		// Files of another generator or schema are stale; other sizes of this one stay valid.
		for (const f of readdirSync(CACHE))
			if (f.startsWith(PREFIX) && !f.includes(version)) rmSync(join(CACHE, f), { recursive: true, force: true });
		return { path, built: { generateMs: t1 - t0, indexMs: t2 - t1 } };
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
