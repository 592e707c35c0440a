/**
 * The archive's side of a sync: which files need their copy brought up to date, which archived files come back
 * into a rebuilt index (their source gone), and what becomes of an indexed file the walk no longer finds: gone
 * (kept, read from the archive) when the archive holds it, purged when nothing does, forgotten when asked.
 */

import { AGENT_FACTS } from "../../agents/registry.js";
import { type ArchivedFile, type ArchiveState, type Forgotten, keptCurrent, sessionStem } from "../parse/archive.js";
import { sessionIdFromFileName } from "../parse/session-format.js";
import type { SessionFileInfo, SessionSource, WalkResult } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import type { SyncReport } from "./report.js";
import type { SessionWriter } from "./session-writer.js";

/** What decides whether a file needs work: one narrow query for every indexed file. */
export interface Stamp {
	size: number;
	mtime: number;
	root: string;
	agent: string;
	/** When its file was found gone (null: it is there). */
	goneAt: number | null;
}

/** A session deliberately forgotten: by its path, or by the id its file name carries. */
export function isForgotten(forgotten: Forgotten | undefined, path: string): boolean {
	if (!forgotten) return false;
	if (forgotten.paths.has(path)) return true;
	// Most archives hold no tombstone: no file name is read then (a sync asks this of every file walked).
	if (forgotten.sessionIds.size === 0) return false;
	const id = sessionIdFromFileName(path);
	return id !== undefined && forgotten.sessionIds.has(id);
}

/**
 * What a moved file keeps: its name, when the name carries a session id (Pi's, Claude Code's and Codex's do;
 * an omp sub-agent's `<agent>.jsonl` does not, and is never taken for another), as the agent names it once moved
 * into a store of its own (`AgentFacts.movedName`).
 */
function movedKey(path: string): string | undefined {
	const stem = sessionStem(path);
	if (sessionIdFromFileName(stem) === undefined) return undefined;
	for (const agent of AGENT_FACTS) {
		const moved = agent.movedName?.(stem);
		if (moved !== undefined) return moved;
	}
	return stem;
}

/** The roots whose every file is known to the walk: those walked fully, and those missing (nothing under them is). */
export function settledRoots(walk: WalkResult): string[] {
	return [...walk.completeRoots, ...(walk.missingRoots ?? [])];
}

/** Whether a file's copy in the archive is behind the file. */
export function needsKeeping(state: ArchiveState | undefined, file: SessionFileInfo): boolean {
	if (!state) return false;
	const kept = state.files.get(file.path);
	return kept === undefined || !keptCurrent(kept, file);
}

/** An archived file as the walk would have given it, with when its source went. */
export type FromArchive = SessionFileInfo & { goneAt: number };

/**
 * Archived files to index from the archive: their source is gone and the index does not hold them (a rebuilt
 * index). Only under a root this source walks, fully walked or missing, of an agent not left out, not
 * forgotten, and not moved (the same file name found live elsewhere, as omp's gc and Codex's archive move them).
 */
export function archivedToIndex(
	state: ArchiveState,
	source: SessionSource,
	walk: WalkResult,
	known: ReadonlyMap<string, Stamp>,
	now: number,
): FromArchive[] {
	const roots = new Set(source.roots());
	const settled = new Set(settledRoots(walk));
	const leftOut = new Set<string>(source.leftOut?.() ?? []);
	const seen = new Set(walk.files.map((f) => f.path));
	// The names of the live files, made only for a copy that passes the cheaper tests (in a no-change sync, none).
	let liveKeys: Set<string | undefined> | undefined;
	const out: FromArchive[] = [];
	for (const kept of state.files.values()) {
		if (seen.has(kept.path) || known.has(kept.path) || !roots.has(kept.root) || !settled.has(kept.root)) continue;
		if (leftOut.has(kept.agent ?? "pi") || isForgotten(state.forgotten, kept.path)) continue;
		const key = movedKey(kept.path);
		liveKeys ??= new Set(walk.files.map((f) => movedKey(f.path)));
		if (key !== undefined && liveKeys.has(key)) continue;
		if (kept.sessionId && state.forgotten.sessionIds.has(kept.sessionId)) continue;
		out.push(asFile(kept, now));
	}
	return out;
}

function asFile(kept: ArchivedFile, now: number): FromArchive {
	const { path, root, agent, kind, spawnedBy, cwd, size, mtimeMs, rowsStamp } = kept;
	return {
		path,
		root,
		// A session rendered from rows is stamped as its walk stamped it, and read as its document from the copy.
		...(rowsStamp !== undefined ? { size: rowsStamp, rendered: true as const } : { size }),
		mtimeMs,
		goneAt: kept.goneAt ?? now,
		...(agent ? { agent } : {}),
		...(kind ? { kind } : {}),
		...(spawnedBy ? { spawnedBy } : {}),
		...(cwd ? { cwd } : {}),
	};
}

/** What to do with an indexed file the walk did not find. */
export type Unseen = { path: string; fate: "purge" | "gone" };

/**
 * Indexed files the walk did not find, and what becomes of each: a file of an agent left out or forgotten is
 * purged; under a root walked fully (or missing), one the archive holds is gone, one it does not hold is purged
 * (a missing root keeps it, as before there was an archive). Under a root not fully walked nothing changes.
 */
export function unseenFiles(
	known: ReadonlyMap<string, Stamp>,
	walk: WalkResult,
	source: SessionSource,
	state: ArchiveState | undefined,
): Unseen[] {
	const seen = new Set(walk.files.map((f) => f.path));
	const complete = new Set(walk.completeRoots);
	const missing = new Set(walk.missingRoots ?? []);
	const leftOut = new Set<string>(source.leftOut?.() ?? []);
	const out: Unseen[] = [];
	for (const [path, k] of known) {
		if (leftOut.has(k.agent) || isForgotten(state?.forgotten, path)) {
			out.push({ path, fate: "purge" });
			continue;
		}
		if (seen.has(path) || k.goneAt !== null) continue;
		if (!complete.has(k.root) && !missing.has(k.root)) continue;
		if (state?.files.has(path)) out.push({ path, fate: "gone" });
		else if (complete.has(k.root)) out.push({ path, fate: "purge" });
	}
	return out;
}

/** Mark a session gone (its file removed, its copy in the archive), or purge it. */
export function settleUnseen(db: Database, writer: SessionWriter, unseen: Unseen, at: number, report: SyncReport): boolean {
	const row = queryAll<{ id: number }>(db, "SELECT id FROM sessions WHERE path = ?", [unseen.path])[0];
	if (!row) return false;
	if (unseen.fate === "purge") {
		writer.purgeSession(row.id);
		report.purged++;
		return false;
	}
	db.run("UPDATE sessions SET gone_at = ? WHERE id = ? AND gone_at IS NULL", [at, row.id]);
	report.gone++;
	return true;
}

/**
 * Gone sessions whose file lives on under another path (the same file name: moved by omp's gc or Codex's
 * archive) are left to the live copy: purged from the index, their copy kept in the archive.
 */
export function purgeMoved(db: Database, writer: SessionWriter, report: SyncReport): void {
	const gone = queryAll<{ id: number; path: string }>(db, "SELECT id, path FROM sessions WHERE gone_at IS NOT NULL");
	if (gone.length === 0) return;
	const live = new Set(queryAll<{ path: string }>(db, "SELECT path FROM sessions WHERE gone_at IS NULL").map((r) => movedKey(r.path)));
	for (const r of gone) {
		const key = movedKey(r.path);
		if (key === undefined || !live.has(key)) continue;
		writer.purgeSession(r.id);
		report.purged++;
	}
}
