/** Shared test helpers: temp dirs, the real engine, indexes over real files. */

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { LookbackIndex, memoryStorage, syncState } from "../src/core/index.js";
import { loadEngine } from "../src/node/engine.js";
import { fileSource } from "../src/node/file-source.js";
import type { LocalIndex } from "../src/node/indexer-work.js";
import type { NodeIndex } from "../src/node/open.js";

export const FIXTURES = join(import.meta.dirname, "fixtures", "sessions");

const dirs: string[] = [];
afterEach(async () => {
	// Within the hook's 90 s, whatever the indexers take.
	const deadline = Date.now() + 80_000;
	for (const d of dirs.splice(0)) {
		// An indexer process a host started outlives it by design: let it finish its sync (and leave) first. One
		// that was still starting when the host exited takes its slot only later, and writes while the folder goes:
		// then wait for it too, and remove again.
		for (;;) {
			await indexersGone(d, deadline);
			try {
				rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
				break;
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" || Date.now() > deadline) throw error;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}
	}
}, 90_000);

/** Whether the process a lock file names (its first word is the pid) is alive. */
function ownerAlive(lockFile: string): boolean {
	try {
		process.kill(Number(readFileSync(lockFile, "utf8").split(" ")[0]), 0);
		return true;
	} catch {
		return false;
	}
}

/** Wait, by polls, until no live process holds an `indexer` slot of an index under `dir` (or the deadline passes). */
async function indexersGone(dir: string, deadline: number): Promise<void> {
	while (Date.now() < deadline) {
		let slots: string[];
		try {
			slots = (readdirSync(dir, { recursive: true }) as string[]).filter((p) => /\.locks[/\\]indexer$/.test(p));
		} catch {
			return;
		}
		if (!slots.some((p) => ownerAlive(join(dir, p)))) return;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** A temp dir removed after the test. */
export function tempDir(name = "lookback"): string {
	const dir = mkdtempSync(join(tmpdir(), `${name}-`));
	dirs.push(dir);
	return dir;
}

/** A copy of the committed sample sessions in a temp dir (tests may change it). */
export function copyFixtures(): string {
	const dir = join(tempDir("sessions"), "sessions");
	cpSync(FIXTURES, dir, { recursive: true });
	return dir;
}

/** An in-memory index synced from a folder laid out like `<agentDir>/sessions`. */
export async function indexOf(root: string = FIXTURES) {
	const sql = await loadEngine();
	const storage = memoryStorage();
	const index = await LookbackIndex.open({ sql, storage });
	const source = fileSource([{ path: root, layout: "nested" }]);
	const report = await index.sync(source);
	return { index, source, storage, report };
}

/** Fixture file path by a unique part of its name. */
export const SAMPLE = {
	v1: "3f9c2a1e-7b4d-4c8e-9a51-6d2e8f0b7c34",
	v2: "8b1e4d2c-5a6f-4e3b-b7c9-1f0a2d3e4c5b",
	linear: "01a100d3-d4c8-723b-80bd-6af395864b0c",
	branched: "01a120c2-3180-7535-afae-76d8368b3493",
	fork: "01a15e02-eb20-7647-95b6-450f9ad9fbc1",
	bash: "01a13b12-8198-77ea-9f9c-591babaca287",
	chinese: "01a17aed-1c10-75a5-90a5-f741d9c2894b",
	compaction: "01a1a5ce-a9f8-71c3-937a-7e6b1abaad3f",
	decision: "01a1d08f-1f38-7778-9b95-6a22ef6969d1",
	cliDates: "01a1f89d-1ea8-70b6-b17b-3265b6b1efb2",
} as const;

/** An index as the tool's calls see it in the indexer process: a LocalIndex whose `fresh` syncs it here. */
export function settledIndex(opened: NodeIndex): LocalIndex {
	return {
		open: async () => opened,
		fresh: async () => ({ opened, state: syncState(await opened.index.sync(opened.source)) }),
		oversizedFiles: () => [],
		indexing: false,
	};
}
