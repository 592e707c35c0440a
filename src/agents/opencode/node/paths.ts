/** Where OpenCode keeps its databases, and the database a session's virtual path (`<database>/<id>`) lies in. */

import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** OpenCode's data folder, as OpenCode finds it: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`. */
export function opencodeDataDir(env: Env = process.env): string {
	const data = env.XDG_DATA_HOME;
	return join(data ? resolve(expandHome(data)) : join(env.HOME || homedir(), ".local", "share"), "opencode");
}

/** The database `OPENCODE_DB` names, as OpenCode reads it (absolute, or inside the data folder); none for `:memory:` or unset. */
export function opencodeDbOverride(env: Env = process.env): string | undefined {
	const db = env.OPENCODE_DB;
	if (!db || db === ":memory:") return undefined;
	return isAbsolute(db) ? db : join(opencodeDataDir(env), db);
}

/** How deep OpenCode's sub-agents of sub-agents are nested in their paths (`<database>/<parent>/<child>`). */
export const OPENCODE_MAX_NESTING = 8;

const isOpencodeId = (name: string): boolean => name.startsWith("ses_");

/**
 * The database file a session's path lies in (OpenCode's `<database>/<id>`, `<database>/<parent>/<id>`), if it is
 * one; `isId` tells the agent's session ids (OpenClaw's are UUIDs).
 */
export function databaseOf(path: string, isId: (name: string) => boolean = isOpencodeId): string | undefined {
	if (!isId(basename(path))) return undefined;
	let at = resolve(path);
	for (let depth = 0; depth < OPENCODE_MAX_NESTING; depth++) {
		at = dirname(at);
		let isFile: boolean;
		try {
			isFile = statSync(at).isFile();
		} catch {
			// Inside the database file (ENOTDIR), or no such folder: one level up.
			continue;
		}
		return isFile ? at : undefined;
	}
	return undefined;
}

/** A session inside a database file: its real path, the database's resolved. */
export function sessionInDatabase(path: string, isId: (name: string) => boolean = isOpencodeId): string | undefined {
	const db = databaseOf(path, isId);
	return db ? join(realpathSync(db), relative(db, resolve(path))) : undefined;
}
