/**
 * What an agent folder declares (DESIGN.md, "Agents"). Three parts, each listed once by its registry:
 * - `AgentFacts` (`<agent>/agent.ts`, registry.ts): who it is and what lookback says of its sessions without reading
 *   them. Light: every face loads it (the CLI's help, the tool's and MCP's schemas), so it imports no parser.
 * - `AgentReader` (`<agent>/reader.ts`, readers.ts): how its files are read, in core (no Node, no DOM).
 * - `NodeAgent` (`<agent>/node/index.ts`, node-registry.ts, declared in node-agent.ts): where its files lie on this
 *   machine and what only Node can do with them.
 */

import type { SessionFormat } from "../core/parse/formats.js";
import type { PickedFolders } from "./picked.js";

/** A session as the facts see it: its path, its id and the separator of its path. */
interface SessionPlace {
	path: string;
	sessionId: string | null;
	sep: string;
}

/** What a face says of a gone session of an agent whose `lookback restore` does not write its file back. */
interface RestoredElsewhere {
	/** Why the session is read from the archive, after the gone mark (`{id}`: the session id). */
	gone: string;
	/** A file restore wrote. */
	wrote: string;
	/** A session the agent's own store still holds. */
	inPlace: string;
}

/**
 * An id of letters, digits, `_`, `.` and `-` that starts with a letter or digit (never an option), 3 to 128 long:
 * the UUIDs and file stems Pi, omp, Claude Code, Codex and Gemini CLI write, sub-agents' `agent-…` ids included.
 */
export const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,127}$/;

/** A UUID, as most agents name their sessions (Qwen Code, Copilot CLI, Continue, OpenClaw, Factory Droid). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id read from a file, if it may name a file or folder: one path segment, never `..`, `/` or NUL (PLAIN_ID).
 * Ids come from files anyone can write (an OpenCode session whose `id` is `../../etc`): only such an id forms a path.
 */
export function idAsName(id: unknown): string | undefined {
	return typeof id === "string" && PLAIN_ID.test(id) ? id : undefined;
}

export interface AgentFacts<K extends string = string> {
	/** Its name in `--agent`, `agent:`, the tool's and MCP's enums and the index's `agent` column; also its folder's. */
	kind: K;
	/** The name people know it by (help, tool descriptions, exports, README's table). */
	label: string;
	/**
	 * The shape of the session ids it writes. An id read from a file that has not this shape makes no command
	 * (`resumeCommand` in core/read/project.ts); ids come from files anyone can write (`deadbeef; touch PWNED #`).
	 */
	idShape: RegExp;
	/**
	 * The command that resumes one of its sessions, given the id as one shell word: checked against `idShape` and
	 * quoted by `shellWord` (`resumeCommand`, the one place a resume command is built; never call this with a raw id).
	 */
	resume(idWord: string): string;
	/** It finds a session only from its project's folder: the resume command starts with `cd <project>` when known. */
	resumeInProject?: true;
	/**
	 * `lookback restore` writes a gone session to a new file rather than back where the agent reads it (OpenCode: its
	 * database is never written), and prints the commands that load and resume it: a gone session's hint is only
	 * `lookback restore <id>`, and the faces say this instead of "its file was removed".
	 */
	restoredElsewhere?: RestoredElsewhere;
	/** Pi's host reads its files: the overlay and `/lookback` switch to its sessions rather than copy their command. */
	opensInPi?: true;
	/** The session id its file names carry (a file's last path segment), if this is one of its names. */
	idFromFileName?(name: string): string | undefined;
	/** A sub-agent's spawner's session id from the sub-agent's path, where the spawner's file name does not hold it (Gemini CLI). */
	spawnerIdFromPath?(path: string): string | undefined;
	/** Where a session's sub-agents lie, as a path prefix (default: a folder named like the session, `<stem>/`). */
	subagentFolder?(session: SessionPlace): string;
	/** A file it keeps beside its sessions that a source may read, by its path relative to a root (never any other). */
	besideFile?(relative: string): boolean;
	/**
	 * The name a session's file keeps when the agent moves it into a store of its own (OpenCode 1.2 moved its JSON
	 * tree's `ses_<id>.json` into its database, at `<database>/ses_<id>`): the file's stem, for one of its names.
	 */
	movedName?(stem: string): string | undefined;
	/** Its tools that write or edit a file, lower-cased (usage's files edited: src/core/parse/entry-usage.ts). */
	editTools?: readonly string[];
	/** A command-line option naming its own folder (`--omp-agent-dir`), with the help's words for it. */
	dirOption?: { name: string; help: string };
}

/** A fixed-width head of a file that the agent rewrites in place (omp's title slot), and the title in it. */
interface TitleSlot {
	/** The slot's bytes at the start of a file, or 0 when it has none. */
	length(bytes: Uint8Array): number;
	/** The title the slot holds, read again after a rename. */
	title(slot: Uint8Array): string | undefined;
}

export interface AgentReader {
	/** Its records read into entries of Pi's tree. */
	format: SessionFormat;
	/** A file that begins with this slot is this agent's, whatever folder it is in; its title is read from the slot alone after a rename. */
	titleSlot?: TitleSlot;
	/** Names of its sessions kept in one file beside them, read once per sync (Codex's `session_index.jsonl`: thread id → name). */
	sessionNames?: { file: string; read(bytes: Uint8Array): Map<string, string> };
	/**
	 * Its sub-agents name their session only by id, and that session's file name cannot be guessed (Codex): the path
	 * a sub-agent names its session by until that session is indexed, when its rows are pointed at its file.
	 */
	spawnerStandIn?(subagentPath: string, sessionId: string): string;
	/** Its folders among files a person picked in a page (web/src/picked-layout.ts). */
	picked?: PickedFolders;
}
