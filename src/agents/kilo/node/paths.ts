/** Where Kilo Code keeps its databases (as 7.7.7 finds them: its data folder, `KILO_DB`). */

import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** Kilo Code's data folder: `$XDG_DATA_HOME/kilo`, else `~/.local/share/kilo`. */
export function kiloDataDir(env: Env = process.env): string {
	const data = env.XDG_DATA_HOME;
	return join(data ? resolve(expandHome(data)) : join(env.HOME || homedir(), ".local", "share"), "kilo");
}

/** The database `KILO_DB` names (absolute, or inside the data folder); none for `:memory:` or unset. */
export function kiloDbOverride(env: Env = process.env): string | undefined {
	const db = env.KILO_DB;
	if (!db || db === ":memory:") return undefined;
	return isAbsolute(db) ? db : join(kiloDataDir(env), db);
}
