/**
 * Which sessions are taken to be the one calling the server. An MCP client does not say which session asks,
 * so, as agentsview does, sessions of the server's working directory (clients start a server in the project
 * they work on) whose file changed in the last `DEFAULTS.callingSessionMs` (and which have a message from the
 * last day) are left out: otherwise the calling session, which holds the question itself, would be the best
 * answer to every search. It runs before every search and list, so it reads only the sessions active lately.
 */

import { realpathSync, statSync } from "node:fs";
import { basename } from "node:path";
import { DEFAULTS, type LookbackIndex } from "../core/index.js";

/** Sessions of the cwd looked at, newest first: the calling one is among the few most recently active. */
const RECENT_SESSIONS = 50;
/**
 * Only sessions whose last message (as indexed) is at most this old are looked at: the calling session is being
 * written now, and a day covers an answer that streamed for long and an index a long sync has not caught up with.
 * The index's newest-first order then reads those few sessions, where every session of the index was read (and
 * the project's summarised and costed) at every call.
 */
const ACTIVE_MS = 24 * 3_600_000;

export interface CallingSessions {
	/** Session file paths as indexed (what a search's `exclude` sees). */
	paths: Set<string>;
	/** What the reply says was left out. */
	leftOut: { sessionId: string; path: string }[];
}

function variants(dir: string): string[] {
	try {
		return [dir, realpathSync(dir)];
	} catch {
		return [dir];
	}
}

function mtimeOf(path: string): number | undefined {
	try {
		return statSync(path).mtimeMs;
	} catch {
		return undefined;
	}
}

export function callingSessions(index: LookbackIndex, cwd: string, now: number = Date.now()): CallingSessions {
	const dirs = new Set(variants(cwd));
	// By the last folder name, which a symlinked and a real path of the same folder share; compared whole below.
	const candidates = index.browse({ project: basename(cwd), since: now - ACTIVE_MS, scope: "all", limit: RECENT_SESSIONS });
	const leftOut = candidates
		.filter((s) => s.cwd !== undefined && variants(s.cwd).some((d) => dirs.has(d)))
		.filter((s) => {
			// A session kept as rows (OpenCode's, `<opencode.db>/<id>`) has no file: its last message's time stands in.
			const mtime = mtimeOf(s.path) ?? (s.modified ? Date.parse(s.modified) : undefined);
			return mtime !== undefined && now - mtime < DEFAULTS.callingSessionMs;
		})
		.map((s) => ({ sessionId: s.sessionId, path: s.path }));
	return { paths: new Set(leftOut.map((s) => s.path)), leftOut };
}

/** The note a reply carries when sessions were left out. */
export function leftOutNote(
	calling: CallingSessions,
	cwd: string,
): { leftOut: CallingSessions["leftOut"]; leftOutReason: string } | undefined {
	if (calling.leftOut.length === 0) return undefined;
	const minutes = Math.round(DEFAULTS.callingSessionMs / 60_000);
	return {
		leftOut: calling.leftOut,
		leftOutReason: `sessions of ${cwd} whose file changed in the last ${minutes} minutes are taken to be the calling session and left out; pass includeCallingSession: true to include them`,
	};
}
