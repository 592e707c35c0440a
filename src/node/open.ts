/** One call that opens the index of a Pi install on Node: engine, index file, session roots. */

import { dirname, join, resolve } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { nodeAgent, nodeAgents } from "../agents/node-registry.js";
import { piAgentDir } from "../agents/pi/node/paths.js";
import { AGENT_KINDS, type AgentKind, isAgentKind } from "../agents/registry.js";
import { type HostFiles, LookbackError, LookbackIndex, type SessionSource } from "../core/index.js";
import { useDeflater } from "../core/store/body-codec.js";
import { FileArchive } from "./archive-store.js";
import { type DataMove, settledIndexPath } from "./data-move.js";
import { chooseEngine, type EngineChoice, engineChoice } from "./engine-choice.js";
import { fileSource, type SessionRoot } from "./file-source.js";
import { fileStorage } from "./file-storage.js";
import type { Env } from "./home.js";
import { givenIndexPath } from "./index-path.js";
import { sessionFilesOf } from "./session-files.js";

export interface NodeIndexOptions {
	/**
	 * Index file (default `LOOKBACK_INDEX`, else `LOOKBACK_HOME`'s, else `<agentDir>/lookback/index.db` when an agent
	 * dir is given, else the data folder's: index-path.ts). One given (`--index`,
	 * `LOOKBACK_INDEX`) is only ever opened as a lookback index or made new in a folder that exists (file-storage.ts).
	 */
	indexPath?: string;
	/** Whether lookback's data may be copied from the place of before 0.2 when a rename cannot move it (a command, not a host). */
	copyToMove?: boolean;
	/** Pi's agent dir (default `PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
	agentDir?: string;
	/** Flat session dirs to add (`--sessions-dir`); the custom dir from the environment is added too. */
	sessionsDirs?: string[];
	/** Leave out `<agentDir>/sessions` and omp's folders (only the given dirs). */
	onlySessionsDirs?: boolean;
	/**
	 * Agents' own folders, by kind (`AgentFacts.dirOption`: omp's agent dir, default `~/.omp/agent`, whose sessions,
	 * sub-agent transcripts and archives are indexed too); an agent not named finds its own.
	 */
	agentDirs?: Partial<Record<AgentKind, string>>;
	/** Agents whose sessions are left out (and forgotten by the next sync); default from `LOOKBACK_SKIP_AGENTS` (comma-separated). */
	leaveOut?: AgentKind[];
	/** Which SQLite runs the index (default: `LOOKBACK_ENGINE`, else auto). */
	engine?: EngineChoice;
	/**
	 * The archive's folder, or false for none (`--no-archive`); default `LOOKBACK_ARCHIVE` (a folder, or "off"),
	 * else `archive/` beside the index.
	 */
	archive?: string | false;
	env?: Env;
}

export interface NodeIndex {
	index: LookbackIndex;
	source: SessionSource;
	indexPath: string;
	roots: SessionRoot[];
	/** omp's agent dir (its history.db and agent.db hold titles and summaries), unless only given dirs are indexed. */
	ompAgentDir?: string;
	/** lookback's copies of the session files (also `source.archive`); `keeping` false when turned off. */
	archive: FileArchive;
	/** Session files as the replies read them: from disk, or from the archive once gone. */
	files: HostFiles;
	/** lookback's data found at the place of before 0.2, and what became of it as this opened. */
	moved?: DataMove;
}

const OFF = new Set(["off", "0", "false", "no", "none"]);

/**
 * The archive: its folder given, or `LOOKBACK_ARCHIVE`, or `archive/` beside the index. Turned off (false, or
 * `LOOKBACK_ARCHIVE=off`) it keeps no copies and the sessions whose files go are purged, but its folder still
 * holds the sessions forgotten, and restore still reads the copies it holds.
 */
function archiveOf(indexPath: string, given: string | false | undefined, env: Env = process.env): FileArchive {
	const beside = join(dirname(resolve(indexPath)), "archive");
	if (given === false) return new FileArchive(beside, { keeping: false });
	const serving = { indexPath: resolve(indexPath) };
	if (given) return new FileArchive(resolve(given), serving);
	const setting = env.LOOKBACK_ARCHIVE?.trim();
	if (setting && OFF.has(setting.toLowerCase())) return new FileArchive(beside, { keeping: false });
	return new FileArchive(setting ? resolve(setting) : beside, serving);
}

/** The session roots of this machine: every agent's (Pi's agent dir first), and the folders given. */
export function piSessionRoots(
	options: Pick<NodeIndexOptions, "agentDir" | "sessionsDirs" | "onlySessionsDirs" | "env" | "agentDirs" | "leaveOut">,
): SessionRoot[] {
	const env = options.env ?? process.env;
	const agentDir = options.agentDir ?? piAgentDir(env);
	const roots: SessionRoot[] = [];
	if (!options.onlySessionsDirs) {
		// Each agent's own roots, in the registry's order (`NodeAgent.roots`).
		const at = { env, agentDir, dirs: options.agentDirs ?? {} };
		for (const agent of nodeAgents()) roots.push(...agent.roots(at));
	}
	for (const dir of options.sessionsDirs ?? []) roots.push({ path: dir, layout: "nested" });
	const leaveOut = new Set(leftOutAgents(options.leaveOut, env));
	return roots.filter((r) => !leaveOut.has(r.agent ?? "pi"));
}

/** The agents a person left out: given, else `LOOKBACK_SKIP_AGENTS`; an unknown name is refused. */
function leftOutAgents(given: AgentKind[] | undefined, env: Env = process.env): AgentKind[] {
	if (given) return given;
	const names = (env.LOOKBACK_SKIP_AGENTS ?? "")
		.split(",")
		.map((n) => n.trim())
		.filter((n) => n.length > 0);
	for (const n of names)
		if (!isAgentKind(n)) throw new LookbackError("bad-argument", `LOOKBACK_SKIP_AGENTS names "${n}"; agents are ${AGENT_KINDS.join(", ")}`);
	return names as AgentKind[];
}

/** Node's zlib for the bodies' raw DEFLATE: native, where fflate runs cold in a one-shot command (body-codec.ts). */
const NODE_DEFLATER = {
	deflate: (data: Uint8Array) => deflateRawSync(data, { level: 6 }),
	inflate: (data: Uint8Array) => inflateRawSync(data),
};

export async function openNodeIndex(options: NodeIndexOptions = {}): Promise<NodeIndex> {
	useDeflater(NODE_DEFLATER);
	const env = options.env ?? process.env;
	const agentDir = options.agentDir ?? piAgentDir(env);
	const { path: indexPath, move } = settledIndexPath(options, { allowCopy: options.copyToMove === true });
	const given = givenIndexPath({ ...options, env }) !== undefined;
	const roots = piSessionRoots({ ...options, agentDir, env });
	const leaveOut = leftOutAgents(options.leaveOut, env);
	const sql = await chooseEngine(options.engine ?? engineChoice(undefined, env));
	const index = await LookbackIndex.open({ sql, storage: fileStorage(indexPath, { given }) });
	const archive = archiveOf(indexPath, options.archive, env);
	return {
		index,
		source: { ...fileSource(roots, leaveOut), archive },
		indexPath,
		roots,
		ompAgentDir: options.onlySessionsDirs ? undefined : nodeAgent("omp").ownDir?.({ env, dirs: options.agentDirs ?? {} }),
		archive,
		files: sessionFilesOf(archive),
		...(move ? { moved: move } : {}),
	};
}
