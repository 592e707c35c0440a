/** Where Amp keeps its threads. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/**
 * Amp's threads folder: `$XDG_DATA_HOME/amp/threads` when set and not empty, else `~/.local/share/amp/threads`
 * (as read by wesm/agentsview internal/parser/amp.go and the casr Amp provider, src/providers/amp.rs).
 */
export function ampThreadsDir(env: Env = process.env): string {
	const data = env.XDG_DATA_HOME ? resolve(expandHome(env.XDG_DATA_HOME)) : join(env.HOME || homedir(), ".local", "share");
	return join(data, "amp", "threads");
}
