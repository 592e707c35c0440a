/**
 * What the agents' folder layouts (src/agents/<agent>/layout.ts) need of the place they walk, whatever it is: folders on disk
 * (src/node/walk-roots.ts) or the files a person picked in a page (web/src/picked-layout.ts). Each layout decides
 * which files of its agent's folders are sessions, and of which kind, the same way in both.
 */

import { AGENT_FACTS } from "../../agents/registry.js";
import type { SessionFileInfo } from "./source.js";

/** A file found by a walk, before its stat; a session rendered from a database comes with its stamps instead. */
export type Found = Omit<SessionFileInfo, "size" | "mtimeMs"> & Partial<Pick<SessionFileInfo, "size" | "mtimeMs">>;

/** The names in one folder. */
export interface Listing {
	files: string[];
	dirs: string[];
}

/** Where a layout puts what it finds and how it looks into folders. */
export interface LayoutWalk {
	found: Found[];
	/** Run the listing of one folder; an error makes the root incomplete but the walk goes on. */
	attempt(dir: string, work: () => Promise<void>): Promise<void>;
	/** A folder's names; throws an error with `code` "ENOENT" when it does not exist. */
	list(dir: string): Promise<Listing>;
	/** A small text file beside the sessions (a project's path), undefined when it cannot be read. */
	readText(path: string): Promise<string | undefined>;
	/** The separator of the walk's paths. */
	sep: string;
}

/** The path of `name` in `dir` (`dir` already normalised: a plain concatenation is far cheaper than a join over thousands of files). */
export function inFolder(walk: Pick<LayoutWalk, "sep">, dir: string, name: string): string {
	return dir === "" ? name : dir.endsWith(walk.sep) ? `${dir}${name}` : `${dir}${walk.sep}${name}`;
}

/** The folder a path is in ("" for a name alone). */
export function folderOf(walk: Pick<LayoutWalk, "sep">, path: string): string {
	const cut = path.lastIndexOf(walk.sep);
	return cut < 0 ? "" : path.slice(0, cut);
}

/** Whether an error says that a file or folder does not exist (an agent's optional folder not made yet). */
function isMissing(error: unknown): boolean {
	return (error as { code?: unknown } | undefined)?.code === "ENOENT";
}

/** Run `work` on a folder that may not exist yet: its absence is no error. */
export async function ifThere(work: () => Promise<void>): Promise<void> {
	try {
		await work();
	} catch (error) {
		if (!isMissing(error)) throw error;
	}
}

/**
 * Whether a path relative to a session root names a file an agent keeps beside its sessions that a source may
 * read (`AgentFacts.besideFile`: a tool's output spilled beside a Claude Code session, Codex's session index of
 * thread names at the top of its home). Never any other file.
 */
export function isBesideFile(relative: string): boolean {
	return AGENT_FACTS.some((agent) => agent.besideFile?.(relative)) && !relative.split("/").includes("..");
}
