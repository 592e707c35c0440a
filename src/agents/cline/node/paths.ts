/** Where Cline keeps its sessions. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/**
 * Cline's data dir, as its CLI resolves it: `CLINE_DATA_DIR`, else `$CLINE_DIR/data`, else `~/.cline/data` (set and
 * not empty; `cline --data-dir` moves it for one run). Sessions are in its `sessions/`.
 */
export function clineDataDir(env: Env = process.env): string {
	if (env.CLINE_DATA_DIR) return resolve(expandHome(env.CLINE_DATA_DIR));
	return join(env.CLINE_DIR ? resolve(expandHome(env.CLINE_DIR)) : join(env.HOME || homedir(), ".cline"), "data");
}
