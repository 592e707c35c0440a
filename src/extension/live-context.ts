/**
 * The asking session's live context: entries the model already has, which search must not return. Taken in
 * the host (from Pi's session manager) as plain data, and made a filter where the search runs (the indexer).
 */

import { realpathSync } from "node:fs";
// Not the core's barrel: the extension's entry loads this file (see params.ts).
import { contextStart } from "../core/parse/branch.js";

/** The part of Pi's session manager this needs (ReadonlySessionManager has it). */
export interface SessionView {
	getSessionFile(): string | undefined;
	getBranch(): { id: string; type: string; firstKeptEntryId?: string }[];
}

/** The current session's file and the entries of its active branch since its last compaction. */
export interface LiveContext {
	path: string;
	ids: string[];
}

function real(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/** The live context of a session (none without a session file: `--no-session`, in memory). */
export function liveContext(session: SessionView | undefined): LiveContext | undefined {
	const file = session?.getSessionFile();
	if (!session || !file) return undefined;
	const branch = session.getBranch().map((e) => ({ id: e.id, firstKeptEntryId: e.type === "compaction" ? e.firstKeptEntryId : undefined }));
	return { path: real(file), ids: branch.slice(contextStart(branch)).map((e) => e.id) };
}

/** A predicate true for hits inside that live context. Compacted-away history and abandoned branches stay findable. */
export function liveFilter(live: LiveContext | undefined): ((hit: { sessionPath: string; entryId: string }) => boolean) | undefined {
	if (!live) return undefined;
	const ids = new Set(live.ids);
	return (hit) => hit.sessionPath === live.path && ids.has(hit.entryId);
}

/** Both at once, where the search runs beside the session manager (the overlay). */
export function liveContextFilter(session: SessionView | undefined): ReturnType<typeof liveFilter> {
	return liveFilter(liveContext(session));
}
