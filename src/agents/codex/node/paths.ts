/** Where Codex keeps its sessions. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** Codex CLI's home: `CODEX_HOME` when set and not empty, else `~/.codex`. Sessions are in its `sessions/` and `archived_sessions/`. */
export function codexHome(env: Env = process.env): string {
	const dir = env.CODEX_HOME;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".codex");
}
