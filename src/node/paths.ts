/** Where Pi keeps things: the agent dir, its session roots, lookback's default index file. */

import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { LookbackError } from "../core/index.js";

export type Env = Record<string, string | undefined>;

function expandHome(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/")) return join(homedir(), path.slice(2));
	return path;
}

/** `PI_CODING_AGENT_DIR`, or `~/.pi/agent`. */
export function piAgentDir(env: Env = process.env): string {
	const dir = env.PI_CODING_AGENT_DIR;
	return dir ? resolve(expandHome(dir)) : join(homedir(), ".pi", "agent");
}

/** omp's agent dir: `~/.omp/agent` (or `~/<PI_CONFIG_DIR>/agent`); omp also honours PI_CODING_AGENT_DIR, which then names one dir for both. */
export function ompAgentDir(env: Env = process.env): string {
	return join(env.HOME || homedir(), env.PI_CONFIG_DIR || ".omp", "agent");
}

/** The default index file: `<agentDir>/lookback/index.db`. */
export function defaultIndexPath(agentDir: string): string {
	return join(agentDir, "lookback", "index.db");
}

/** A custom flat session dir, from `PI_CODING_AGENT_SESSION_DIR` or `sessionDir` in the agent's settings.json. */
export function customSessionDir(agentDir: string, env: Env = process.env): string | undefined {
	if (env.PI_CODING_AGENT_SESSION_DIR) return resolve(expandHome(env.PI_CODING_AGENT_SESSION_DIR));
	try {
		const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as { sessionDir?: unknown };
		if (typeof settings.sessionDir === "string" && settings.sessionDir.length > 0) {
			return resolve(agentDir, expandHome(settings.sessionDir));
		}
	} catch {
		// no settings, or not plain JSON: no custom dir
	}
	return undefined;
}

function inside(child: string, parent: string): boolean {
	const rel = relative(parent, child);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !rel.split(sep).includes("..");
}

/**
 * The real path of a session file named by the user, refused unless it is a `.jsonl` (`.jsonl.gz`) inside one of the
 * roots after symlinks are resolved. @throws LookbackError("path-outside-roots").
 */
export function sessionPathInRoots(path: string, roots: string[]): string {
	const refuse = (why: string) => new LookbackError("path-outside-roots", `refusing "${path}": ${why}`);
	if (!path.endsWith(".jsonl") && !path.endsWith(".jsonl.gz")) throw refuse("a session file ends in .jsonl (or .jsonl.gz, an omp archive)");
	let real: string;
	try {
		real = realpathSync(resolve(path));
	} catch {
		throw refuse("no such file");
	}
	for (const root of roots) {
		let realRoot: string;
		try {
			realRoot = realpathSync(root);
		} catch {
			continue;
		}
		if (inside(real, realRoot)) return real;
	}
	throw refuse(`it is not inside the session folders (${roots.join(", ")})`);
}
