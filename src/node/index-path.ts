/**
 * Where lookback keeps its own data (the index, its locks and the archive) unless told: the platform's data folder,
 * `$XDG_DATA_HOME/lookback` (`~/.local/share/lookback`), `~/Library/Application Support/lookback` on macOS,
 * `%LOCALAPPDATA%\lookback` on Windows, not one agent's folder. Before 0.2 it lived in Pi's agent dir
 * (`<agentDir>/lookback/`); an index found there is moved by `settleIndexPlace` (data-move.ts) or used in place.
 */

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { piAgentDir } from "../agents/pi/node/paths.js";
import { type Env, expandHome } from "./home.js";

/** The index file inside an agent dir: `<agentDir>/lookback/index.db` (where it lived before 0.2, and with `--agent-dir`). */
export function defaultIndexPath(agentDir: string): string {
	return join(agentDir, "lookback", "index.db");
}

/** lookback's data folder: `LOOKBACK_HOME`, else the platform's data folder's `lookback`. */
export function lookbackDataDir(env: Env = process.env, platform: NodeJS.Platform = process.platform): string {
	if (env.LOOKBACK_HOME) return resolve(expandHome(env.LOOKBACK_HOME));
	const home = env.HOME || homedir();
	if (platform === "win32") return join(env.LOCALAPPDATA || join(env.USERPROFILE || home, "AppData", "Local"), "lookback");
	if (platform === "darwin") return join(home, "Library", "Application Support", "lookback");
	// The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
	const xdg = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(home, ".local", "share");
	return join(xdg, "lookback");
}

/** Where an index is decided, and what decided it (named by `stats` and by an index that finds nothing). */
export interface IndexPlace {
	path: string;
	/** `--index`, `LOOKBACK_INDEX`, `LOOKBACK_HOME`, `--agent-dir` or `PI_CODING_AGENT_DIR` (the index in that agent dir), or the data folder. */
	by: "--index" | "LOOKBACK_INDEX" | "LOOKBACK_HOME" | "--agent-dir" | "PI_CODING_AGENT_DIR" | "data folder";
	/** Where the data folder is, when the index used is still at the place of before 0.2 (`~/.pi/agent/lookback/`): not moved yet. */
	moveTo?: string;
}

/**
 * The index a command or host opens: the one given; `LOOKBACK_INDEX`; `LOOKBACK_HOME`'s; the one in an agent dir
 * given (`--agent-dir`, `PI_CODING_AGENT_DIR`: as before); else the data folder's, unless only the place of before
 * 0.2 holds one (not moved yet: used in place).
 */
export function indexPlace(options: { indexPath?: string; agentDir?: string; env?: Env }): IndexPlace {
	const env = options.env ?? process.env;
	if (options.indexPath) return { path: options.indexPath, by: "--index" };
	if (env.LOOKBACK_INDEX) return { path: resolve(expandHome(env.LOOKBACK_INDEX)), by: "LOOKBACK_INDEX" };
	if (env.LOOKBACK_HOME) return { path: join(lookbackDataDir(env), "index.db"), by: "LOOKBACK_HOME" };
	if (options.agentDir) return { path: defaultIndexPath(options.agentDir), by: "--agent-dir" };
	if (env.PI_CODING_AGENT_DIR) return { path: defaultIndexPath(piAgentDir(env)), by: "PI_CODING_AGENT_DIR" };
	const dir = lookbackDataDir(env);
	const path = join(dir, "index.db");
	const legacy = defaultIndexPath(piAgentDir(env));
	if (!existsSync(path) && existsSync(legacy)) return { path: legacy, by: "data folder", moveTo: dir };
	return { path, by: "data folder" };
}

/** The index file a command or host opens (`indexPlace`). */
export function indexPathOf(options: { indexPath?: string; agentDir?: string; env?: Env }): string {
	return indexPlace(options).path;
}

/** lookback's own folder, where the default index lies (its config file beside it): moves with the default index. */
export function lookbackFolder(options: { agentDir?: string; env?: Env } = {}): string {
	const place = indexPlace({ agentDir: options.agentDir, env: { ...(options.env ?? process.env), LOOKBACK_INDEX: undefined } });
	return dirname(place.path);
}

/** The index a person named: `--index` (the option given), else `LOOKBACK_INDEX`; undefined for the default one. */
export function givenIndexPath(options: { indexPath?: string; env?: Env }): string | undefined {
	const env = options.env ?? process.env;
	return options.indexPath ?? (env.LOOKBACK_INDEX ? resolve(expandHome(env.LOOKBACK_INDEX)) : undefined);
}
