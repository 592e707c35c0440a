/** Session files the index holds with something wrong in them, named for a message (the browser's "bad file among good ones"). */

import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";

export interface FileProblem {
	path: string;
	/** Lines that were not JSON objects. */
	malformedLines: number;
	/** What was wrong with the header, if anything ("header missing", "header not-first"). */
	problem: string | null;
	/** Entries indexed from it: 0 means nothing in it was a session. */
	entries: number;
}

/**
 * Of `paths`, those indexed with malformed lines, a header problem, or nothing of a session at all. A session that
 * says who it is but holds no entry yet is none: an agent writes such files (Gemini CLI leaves a chat with only its
 * opening context behind each resume, a Pi session quit before its first prompt).
 */
export function fileProblems(db: Database, paths: string[]): FileProblem[] {
	const found: FileProblem[] = [];
	for (const path of paths) {
		const row = queryAll<{ malformed: number; problem: string | null; entries: number }>(
			db,
			"SELECT malformed, problem, entry_count AS entries FROM sessions WHERE path = ? AND (malformed > 0 OR problem IS NOT NULL OR (entry_count = 0 AND session_id IS NULL))",
			[path],
		)[0];
		if (row) found.push({ path, malformedLines: row.malformed, problem: row.problem, entries: row.entries });
	}
	return found;
}
