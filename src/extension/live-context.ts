/** The asking session's live context: entries the model already has, which search must not return. */

import { realpathSync } from "node:fs";
import { contextStart } from "../core/index.js";

/** The part of Pi's session manager this needs (ReadonlySessionManager has it). */
export interface SessionView {
	getSessionFile(): string | undefined;
	getBranch(): { id: string; type: string; firstKeptEntryId?: string }[];
}

function real(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/**
 * A predicate true for hits inside the current session's active branch since its last compaction.
 * Compacted-away history and abandoned branches of the current session stay findable.
 */
export function liveContextFilter(
	session: SessionView | undefined,
): ((hit: { sessionPath: string; entryId: string }) => boolean) | undefined {
	const file = session?.getSessionFile();
	if (!session || !file) return undefined;
	const branch = session.getBranch().map((e) => ({ id: e.id, firstKeptEntryId: e.type === "compaction" ? e.firstKeptEntryId : undefined }));
	const live = new Set(branch.slice(contextStart(branch)).map((e) => e.id));
	const path = real(file);
	return (hit) => hit.sessionPath === path && live.has(hit.entryId);
}
