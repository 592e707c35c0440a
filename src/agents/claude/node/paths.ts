/** Where Claude Code keeps its sessions. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** Claude Code's config dir: `CLAUDE_CONFIG_DIR` when set and not empty, else `~/.claude`. Sessions are in its `projects/`. */
export function claudeConfigDir(env: Env = process.env): string {
	const dir = env.CLAUDE_CONFIG_DIR;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".claude");
}
