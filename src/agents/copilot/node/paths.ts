/** Where GitHub Copilot CLI keeps its sessions. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** Copilot CLI's home: `COPILOT_HOME` when set and not empty, else `~/.copilot`. Sessions are in its `session-state/`. */
export function copilotHome(env: Env = process.env): string {
	const dir = env.COPILOT_HOME;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".copilot");
}
