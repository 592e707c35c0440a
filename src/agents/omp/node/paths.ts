/** Where omp keeps things: its agent dir, which holds its sessions, archives and databases of titles. */

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../../../node/home.js";

/**
 * omp's agent dir, as omp resolves it: a profile (`OMP_PROFILE` / `PI_PROFILE`) → `~/.omp/profiles/<name>/agent`;
 * `$XDG_DATA_HOME/omp` when that folder exists; else `~/.omp/agent` (`PI_CONFIG_DIR` renames `.omp`).
 * omp also honours PI_CODING_AGENT_DIR, which then names one folder for both agents.
 */
export function ompAgentDir(env: Env = process.env): string {
	const home = env.HOME || homedir();
	const root = join(home, env.PI_CONFIG_DIR || ".omp");
	const profile = env.OMP_PROFILE || env.PI_PROFILE;
	if (profile) return join(root, "profiles", profile, "agent");
	if (env.XDG_DATA_HOME && existsSync(join(env.XDG_DATA_HOME, "omp"))) return join(env.XDG_DATA_HOME, "omp");
	return join(root, "agent");
}
