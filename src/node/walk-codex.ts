/**
 * Codex CLI's folders under `$CODEX_HOME` (default `~/.codex`): `sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`,
 * the same compressed as `.jsonl.zst` once idle for 7 days (by a background worker, in 0.171.0 only with its
 * `local_thread_store_compression` feature on), and `archived_sessions/` (flat). Both exist for a moment while Codex
 * compresses one (the .zst is published before the plain file goes) and when a resume writes it out plain again
 * (the plain file before the .zst goes): then the plain file is the one read. Sub-agents and forks are rollouts of
 * their own; which session they belong to is read from their first line.
 */

import { join, sep } from "node:path";
import { type Found, listDir, type WalkSink } from "./walk-dirs.js";

/** sessions/YYYY/MM/DD: how deep dated folders are followed. */
const MAX_DEPTH = 4;

function isRollout(name: string): boolean {
	return name.startsWith("rollout-") && (name.endsWith(".jsonl") || name.endsWith(".jsonl.zst"));
}

/** The rollouts of one folder; a `.jsonl.zst` beside its plain `.jsonl` is left out. */
function rollouts(files: string[]): string[] {
	const names = new Set(files.filter(isRollout));
	return [...names].filter((n) => !(n.endsWith(".zst") && names.has(n.slice(0, -".zst".length))));
}

async function dated(dir: string, base: Omit<Found, "path">, sink: WalkSink, depth: number): Promise<void> {
	const { files, dirs } = await listDir(dir, sink.folders);
	// dir is already normalised: a plain concatenation is far cheaper than join() over thousands of files
	for (const name of rollouts(files)) sink.found.push({ ...base, path: `${dir}${sep}${name}` });
	if (depth >= MAX_DEPTH) return;
	for (const sub of dirs) await sink.attempt(join(dir, sub), () => dated(join(dir, sub), base, sink, depth + 1));
}

/** A folder that may not exist yet (a fresh Codex home has no archived_sessions/). */
async function optional(work: () => Promise<void>): Promise<void> {
	try {
		await work();
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
}

/** Walk a Codex home: `sessions/**` and `archived_sessions/`. */
export async function walkCodex(home: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	await listDir(home, sink.folders); // a missing home is a missing root
	const sessions = join(home, "sessions");
	await sink.attempt(sessions, () => optional(() => dated(sessions, base, sink, 1)));
	const archived = join(home, "archived_sessions");
	await sink.attempt(archived, () =>
		optional(async () => {
			const { files } = await listDir(archived, sink.folders);
			for (const name of rollouts(files)) sink.found.push({ ...base, path: join(archived, name), kind: "archived" });
		}),
	);
}
