/**
 * Codex CLI's folders under `$CODEX_HOME` (default `~/.codex`): `sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`,
 * the same compressed as `.jsonl.zst` once idle for 7 days (by a background worker, in 0.171.0 only with its
 * `local_thread_store_compression` feature on), and `archived_sessions/` (flat). Both exist for a moment while Codex
 * compresses one (the .zst is published before the plain file goes) and when a resume writes it out plain again
 * (the plain file before the .zst goes): then the plain file is the one read. Sub-agents and forks are rollouts of
 * their own; which session they belong to is read from their first line.
 */

import { type Found, ifThere, inFolder, type LayoutWalk } from "../../core/parse/layout.js";

/** sessions/YYYY/MM/DD: how deep dated folders are followed. */
const MAX_DEPTH = 4;

export function isRollout(name: string): boolean {
	return name.startsWith("rollout-") && (name.endsWith(".jsonl") || name.endsWith(".jsonl.zst"));
}

/** The rollouts of one folder; a `.jsonl.zst` beside its plain `.jsonl` is left out. */
export function rollouts(files: string[]): string[] {
	const names = new Set(files.filter(isRollout));
	return [...names].filter((n) => !(n.endsWith(".zst") && names.has(n.slice(0, -".zst".length))));
}

/** The rollouts of a folder of `sessions/` and of the dated folders in it. */
async function codexDated(dir: string, base: Omit<Found, "path">, walk: LayoutWalk, depth = 1): Promise<void> {
	const { files, dirs } = await walk.list(dir);
	for (const name of rollouts(files)) walk.found.push({ ...base, path: inFolder(walk, dir, name) });
	if (depth >= MAX_DEPTH) return;
	for (const sub of dirs) {
		const dated = inFolder(walk, dir, sub);
		await walk.attempt(dated, () => codexDated(dated, base, walk, depth + 1));
	}
}

/** The rollouts of `archived_sessions/`: archived (flat). */
export async function codexArchived(archived: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const { files } = await walk.list(archived);
	for (const name of rollouts(files)) walk.found.push({ ...base, path: inFolder(walk, archived, name), kind: "archived" });
}

/** Walk a Codex home: `sessions/**` and `archived_sessions/`, either of which may not exist yet. */
export async function walkCodex(home: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	await walk.list(home); // a missing home is a missing root
	const sessions = inFolder(walk, home, "sessions");
	await walk.attempt(sessions, () => ifThere(() => codexDated(sessions, base, walk)));
	const archived = inFolder(walk, home, "archived_sessions");
	await walk.attempt(archived, () => ifThere(() => codexArchived(archived, base, walk)));
}
