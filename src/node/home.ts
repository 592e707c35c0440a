/** The environment a Node host reads the agents' folders from, and `~` in a path given there. */

import { homedir } from "node:os";
import { join } from "node:path";

export type Env = Record<string, string | undefined>;

/** A path with a leading `~` made the home folder. */
export function expandHome(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/")) return join(homedir(), path.slice(2));
	return path;
}
