/** Where Pi keeps things: the agent dir, its session roots, lookback's default index file. */

import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { LookbackError } from "../core/errors.js";

export type Env = Record<string, string | undefined>;

function expandHome(path: string): string {
	if (path === "~") return homedir();
	if (path.startsWith("~/")) return join(homedir(), path.slice(2));
	return path;
}

/** `PI_CODING_AGENT_DIR`, or `~/.pi/agent`. */
export function piAgentDir(env: Env = process.env): string {
	const dir = env.PI_CODING_AGENT_DIR;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".pi", "agent");
}

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

/** Claude Code's config dir: `CLAUDE_CONFIG_DIR` when set and not empty, else `~/.claude`. Sessions are in its `projects/`. */
export function claudeConfigDir(env: Env = process.env): string {
	const dir = env.CLAUDE_CONFIG_DIR;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".claude");
}

/** Codex CLI's home: `CODEX_HOME` when set and not empty, else `~/.codex`. Sessions are in its `sessions/` and `archived_sessions/`. */
export function codexHome(env: Env = process.env): string {
	const dir = env.CODEX_HOME;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".codex");
}

/** Gemini CLI's dir: `$GEMINI_CLI_HOME/.gemini` when set and not empty, else `~/.gemini`. Chats are in its `tmp/<project>/chats/`. */
export function geminiDir(env: Env = process.env): string {
	const home = env.GEMINI_CLI_HOME;
	return join(home ? resolve(expandHome(home)) : env.HOME || homedir(), ".gemini");
}

/** OpenCode's data folder, as OpenCode finds it: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`. */
export function opencodeDataDir(env: Env = process.env): string {
	const data = env.XDG_DATA_HOME;
	return join(data ? resolve(expandHome(data)) : join(env.HOME || homedir(), ".local", "share"), "opencode");
}

/** The database `OPENCODE_DB` names, as OpenCode reads it (absolute, or inside the data folder); none for `:memory:` or unset. */
export function opencodeDbOverride(env: Env = process.env): string | undefined {
	const db = env.OPENCODE_DB;
	if (!db || db === ":memory:") return undefined;
	return isAbsolute(db) ? db : join(opencodeDataDir(env), db);
}

/** The default index file: `<agentDir>/lookback/index.db`. */
export function defaultIndexPath(agentDir: string): string {
	return join(agentDir, "lookback", "index.db");
}

/** The index a person named: `--index` (the option given), else `LOOKBACK_INDEX`; undefined for the default one. */
export function givenIndexPath(options: { indexPath?: string; env?: Env }): string | undefined {
	return options.indexPath ?? ((options.env ?? process.env).LOOKBACK_INDEX || undefined);
}

/** The index a command or host opens: the one given (`--index`, `LOOKBACK_INDEX`), else the one in Pi's agent dir. */
export function indexPathOf(options: { indexPath?: string; agentDir?: string; env?: Env }): string {
	return givenIndexPath(options) ?? defaultIndexPath(options.agentDir ?? piAgentDir(options.env ?? process.env));
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

/** A path whose file does not exist, with the links of its deepest existing folder resolved. */
function realAncestor(path: string): string {
	const rest: string[] = [basename(path)];
	for (let dir = dirname(path); ; dir = dirname(dir)) {
		try {
			return join(realpathSync(dir), ...rest);
		} catch {
			if (dirname(dir) === dir) return path;
			rest.unshift(basename(dir));
		}
	}
}

function inside(child: string, parent: string): boolean {
	const rel = relative(parent, child);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !rel.split(sep).includes("..");
}

/** How deep OpenCode's sub-agents of sub-agents are nested in their paths (`<database>/<parent>/<child>`). */
export const OPENCODE_MAX_NESTING = 8;

/** The database file a session's path lies in (OpenCode's `<database>/<id>`, `<database>/<parent>/<id>`), if it is one. */
export function databaseOf(path: string): string | undefined {
	if (!basename(path).startsWith("ses_")) return undefined;
	let at = resolve(path);
	for (let depth = 0; depth < OPENCODE_MAX_NESTING; depth++) {
		at = dirname(at);
		let isFile: boolean;
		try {
			isFile = statSync(at).isFile();
		} catch {
			// Inside the database file (ENOTDIR), or no such folder: one level up.
			continue;
		}
		return isFile ? at : undefined;
	}
	return undefined;
}

/** A session inside a database file: its real path, the database's resolved. */
function sessionInDatabase(path: string): string | undefined {
	const db = databaseOf(path);
	return db ? join(realpathSync(db), relative(db, resolve(path))) : undefined;
}

/**
 * The real path of a session file named by the user, refused unless it is a `.jsonl` (`.jsonl.gz`) inside one of the
 * roots after symlinks are resolved, or a session inside a database there; a file that is gone, by the path as
 * given. @throws LookbackError("path-outside-roots").
 */
export function sessionPathInRoots(path: string, roots: string[]): string {
	const refuse = (why: string) => new LookbackError("path-outside-roots", `refusing "${path}": ${why}`);
	const inDatabase = sessionInDatabase(path);
	if (!inDatabase && !path.endsWith(".jsonl") && !path.endsWith(".jsonl.gz") && !path.endsWith(".jsonl.zst") && !path.endsWith(".json"))
		throw refuse(
			"a session file ends in .jsonl (or .jsonl.gz, an omp archive; .jsonl.zst, a compressed Codex rollout; .json, a Gemini CLI chat before 0.39 or an OpenCode session before 1.2), or is a session inside an OpenCode database (<opencode.db>/ses_…)",
		);
	let real: string;
	try {
		real = inDatabase ?? realpathSync(resolve(path));
	} catch {
		// A session whose file is gone is still named by its path (read from lookback's archive), its folders' links resolved.
		if (/[\x00-\x1f]/.test(path)) throw refuse("no such file");
		real = realAncestor(resolve(path));
	}
	for (const root of roots) {
		let realRoot: string;
		try {
			realRoot = realpathSync(root);
		} catch {
			realRoot = resolve(root); // a folder removed with its sessions: they may be gone, not forgotten
		}
		if (inside(real, realRoot)) return real;
	}
	throw refuse(`it is not inside the session folders (${roots.join(", ")})`);
}
