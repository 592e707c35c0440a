/**
 * Which sessions are taken to be the one calling the server. An MCP client does not say which session asks,
 * so, as agentsview does, sessions of the server's working directory (clients start a server in the project
 * they work on) whose file changed in the last `DEFAULTS.callingSessionMs` (and which have a message from the
 * last day) are left out: otherwise the calling session, which holds the question itself, would be the best
 * answer to every search. It is asked before every search and list, so it reads only the sessions active lately,
 * and only when something may have changed (`CallingSessionsCache`).
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

/** A session of the cwd active in the last day, with its file's time: what can be the caller, before the clock decides. */
interface Candidate {
	sessionId: string;
	path: string;
	/** Its last message, as indexed (ms), and its file's time (or, kept as rows, that last message's). */
	modified?: number;
	mtime?: number;
}

/** The sessions that can be the caller's at `now`, read from the index and the files. */
function candidates(index: LookbackIndex, cwd: string, now: number): Candidate[] {
	const dirs = new Set(variants(cwd));
	// By the last folder name, which a symlinked and a real path of the same folder share; compared whole below.
	return index
		.browse({ project: basename(cwd), since: now - ACTIVE_MS, scope: "all", limit: RECENT_SESSIONS })
		.filter((s) => s.cwd !== undefined && variants(s.cwd).some((d) => dirs.has(d)))
		.map((s) => {
			const modified = s.modified ? Date.parse(s.modified) : undefined;
			// A session kept as rows (OpenCode's, `<opencode.db>/<id>`) has no file: its last message's time stands in.
			return { sessionId: s.sessionId, path: s.path, modified, mtime: mtimeOf(s.path) ?? modified };
		});
}

/** Those of the candidates the clock says are the caller's now. */
function callingAt(found: Candidate[], now: number): CallingSessions {
	const leftOut = found
		.filter(
			(s) =>
				s.modified !== undefined && now - s.modified <= ACTIVE_MS && s.mtime !== undefined && now - s.mtime < DEFAULTS.callingSessionMs,
		)
		.map((s) => ({ sessionId: s.sessionId, path: s.path }));
	return { paths: new Set(leftOut.map((s) => s.path)), leftOut };
}

/**
 * The calling sessions of one server, read from the index and the files again only when they may have changed
 * (`HostIndex.fresh`'s version: no sync asked since, the watched folders quiet), else from what was read then, the
 * clock applied anew: with no file written, a session can only stop being the caller's as time passes, never start.
 */
export class CallingSessionsCache {
	private last?: { version: number; found: Candidate[] };

	get(index: LookbackIndex, cwd: string, version: number, now: number = Date.now()): CallingSessions {
		if (this.last?.version !== version) this.last = { version, found: candidates(index, cwd, now) };
		return callingAt(this.last.found, now);
	}
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
