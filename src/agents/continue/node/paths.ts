/** Where Continue keeps its sessions. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** Continue's dir: `CONTINUE_GLOBAL_DIR` when set and not empty, else `~/.continue`. Sessions are in its `sessions/`. */
export function continueDir(env: Env = process.env): string {
	const dir = env.CONTINUE_GLOBAL_DIR;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".continue");
}
