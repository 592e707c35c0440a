/**
 * What an agent folder's Node part declares (`<agent>/node/index.ts`, listed in node-registry.ts): where its files lie
 * on this machine, the environment variables that move them, and what only Node can do with them. See agent.ts for
 * the core parts, DESIGN.md ("Agents") for the whole.
 */

import type { SessionSummary } from "../core/index.js";
import type { ArchiveRecord } from "../node/archive-manifest.js";
import type { FileArchive } from "../node/archive-store.js";
import type { Env } from "../node/home.js";
import type { RestoreReply } from "../node/restore.js";
import type { Found, WalkSink } from "../node/walk-dirs.js";
import type { SessionRoot } from "../node/walk-roots.js";
import type { AgentKind } from "./registry.js";

/** What an agent's roots are made from: the environment, and the agent dirs given on the command line or in options. */
interface RootsContext {
	env: Env;
	/** Pi's agent dir (`--agent-dir`, else `PI_CODING_AGENT_DIR`, else `~/.pi/agent`). */
	agentDir: string;
	/** The agents' own folders given on the command line or in options (`AgentFacts.dirOption`: omp's `--omp-agent-dir`), by kind. */
	dirs: Partial<Record<AgentKind, string>>;
}

/** The walk of one root in a layout: what it finds goes into `sink.found`; a folder that cannot be listed makes the root incomplete. */
export type AgentWalk = (root: string, base: Omit<Found, "path">, sink: WalkSink) => Promise<void>;

/** One ending its session files have, and what a file with it is (for the refusal of a path that is no session file). */
interface SessionEnding {
	ending: string;
	what?: string;
}

/** An agent that keeps its sessions as rows of a file of its own (OpenCode's database): each walked at a virtual path inside it. */
interface SessionStore {
	/** What such a path is, for the refusal of a path that is no session. */
	what: string;
	/** The real path of a session inside one of its files, if `path` names one. */
	sessionIn(path: string): string | undefined;
	/** The whole document of a session at such a path (`SessionFileInfo.rendered`). */
	readDocument(path: string): Promise<Uint8Array>;
}

export interface NodeAgent {
	/** Its session roots on this machine, in the order they are walked. */
	roots(at: RootsContext): SessionRoot[];
	/** The layouts its roots name (`SessionRoot.layout`), each a walk; a name is one agent's only. */
	walks: Readonly<Record<string, AgentWalk>>;
	/** The endings of its session files. */
	sessionEndings: readonly SessionEnding[];
	/** Where it keeps sessions as rows, not files. */
	store?: SessionStore;
	/**
	 * `lookback restore` of its sessions, where it is not their files written back where they were (OpenCode's, which
	 * lookback never writes into its database): `sessions` the session and then its sub-agents, `records` their copies.
	 * Undefined: its files are written back, as any agent's (OpenClaw's transcripts from before its database).
	 */
	restore?(
		archive: FileArchive,
		sessions: readonly SessionSummary[],
		records: readonly (ArchiveRecord | undefined)[],
	): RestoreReply | undefined;
	/** The environment variables that move its files (README's table names each: test/agents/registry.test.ts). */
	env: readonly string[];
	/** Its own folder, given (`dirs`) or as it resolves it, where it keeps more than its sessions (omp's databases of titles). */
	ownDir?(at: Pick<RootsContext, "env" | "dirs">): string;
}
