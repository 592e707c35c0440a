/**
 * Cline's folders under `<data dir>/sessions` (CLI 3.x): one folder per session, `<id>/`, holding its transcript
 * `<id>.messages.json`, its metadata `<id>.json` (its folder, model, title and usage; not read: a walk would read a file
 * per session where it needs only a listing) and each
 * sub-agent's transcript, `agent_<agent id>.messages.json` (spawned by `spawn_agent`). Session ids are
 * `<ms since 1970>_<5 characters>`. `db/sessions.db` beside them lists the same sessions with the same metadata.
 */

import { type Found, inFolder, type LayoutWalk } from "../../core/parse/layout.js";

const ENDING = ".messages.json";

/** One session's folder: its transcript and its sub-agents'. */
async function clineSession(dir: string, id: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const { files } = await walk.list(dir);
	const own = `${id}${ENDING}`;
	const session = inFolder(walk, dir, own);
	if (files.includes(own)) walk.found.push({ ...base, path: session });
	for (const name of files.filter((n) => n.startsWith("agent_") && n.endsWith(ENDING)).sort())
		walk.found.push({ ...base, path: inFolder(walk, dir, name), kind: "subagent", ...(files.includes(own) ? { spawnedBy: session } : {}) });
}

/** Walk `<data dir>/sessions`: one folder per session. */
export async function walkCline(sessions: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	for (const id of (await walk.list(sessions)).dirs.sort()) {
		const dir = inFolder(walk, sessions, id);
		await walk.attempt(dir, () => clineSession(dir, id, base, walk));
	}
}
