/**
 * Continue's sessions under `<continue dir>/sessions`: one JSON document per session, `<session id>.json`, written
 * whole after each turn; `sessions.json` beside them is its list of sessions, not one.
 */

import { type Found, inFolder, type LayoutWalk } from "../../core/parse/layout.js";

/** Whether a file of the folder is a session (its list of sessions is not). */
function isContinueSession(name: string): boolean {
	return name.endsWith(".json") && name !== "sessions.json";
}

/** Walk `<continue dir>/sessions`. */
export async function walkContinue(sessions: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	for (const name of (await walk.list(sessions)).files.filter(isContinueSession).sort())
		walk.found.push({ ...base, path: inFolder(walk, sessions, name) });
}
