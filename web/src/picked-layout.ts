/**
 * Which of the files a person picked are which agent's sessions. A browser tells a folder's name, not its place, so
 * each agent's folders are found by their shape wherever they sit in what was picked (a home folder, an agent's own
 * folder, its sessions folder, one project) and read with that agent's layout from core, as the command line reads
 * them on disk; each agent says how (`AgentReader.picked`, src/agents/picked.ts: Claude Code's `projects/`, Codex's
 * `sessions/` and `archived_sessions/`, Gemini CLI's `tmp/`). An agent's own folder picked whole gives its sessions
 * only (not its history, logs or settings). What no agent's folder holds is left to Pi's and omp's layout
 * (browser-source.ts).
 */

import type { PickedAt, PickedFolders } from "../../src/agents/picked.js";
import { AGENT_READERS } from "../../src/agents/readers.js";
import { type Found, folderOf, inFolder, type LayoutWalk, type Listing, type SyncWarning } from "../../src/core/index.js";

/** What the agents' layouts made of the picked files. */
export interface PickedLayout {
	/** Session files of the agents whose folders were found, with their agent, kind and spawner. */
	found: Found[];
	/** Folders an agent's layout read whole: no other file in them is a session. */
	claimed: string[];
	warnings: SyncWarning[];
}

/** The largest file beside the sessions read as text (a project's path, Gemini's project list). */
const MAX_TEXT_BYTES = 1 << 20;

/** The picked files as folders: each folder's names by its path, "" holding what was picked. */
function foldersOf(paths: Iterable<string>): Map<string, { files: Set<string>; dirs: Set<string> }> {
	const folders = new Map<string, { files: Set<string>; dirs: Set<string> }>();
	const folder = (path: string) => {
		let f = folders.get(path);
		if (!f) folders.set(path, (f = { files: new Set(), dirs: new Set() }));
		return f;
	};
	folder("");
	for (const path of paths) {
		const parts = path.split("/");
		for (let i = 0; i < parts.length - 1; i++) folder(parts.slice(0, i).join("/")).dirs.add(parts[i]);
		folder(parts.slice(0, -1).join("/")).files.add(parts[parts.length - 1]);
	}
	return folders;
}

/** The agents' parts of the picked layout, in the registry's order (read when first asked, not as this module loads). */
let picked: PickedFolders[] | undefined;
const agentsPicked = () => (picked ??= AGENT_READERS.flatMap(([, reader]) => (reader.picked ? [reader.picked] : [])));

/** Read the picked files (`files`: path → File) with the agents' layouts. */
export async function pickedLayout(files: ReadonlyMap<string, File>): Promise<PickedLayout> {
	const folders = foldersOf(files.keys());
	const under = new Map<(name: string) => boolean, Set<string>>();
	/** Whether a picked file under `dir` passes `test`: every folder above such a file, made once per test. */
	const hasFileUnder = (dir: string, test: (name: string) => boolean) => {
		let dirs = under.get(test);
		if (!dirs) {
			dirs = new Set();
			for (const path of files.keys())
				if (test(path.slice(path.lastIndexOf("/") + 1))) for (let d = path; d !== ""; ) dirs.add((d = folderOf({ sep: "/" }, d)));
			under.set(test, dirs);
		}
		return dirs.has(dir);
	};
	const warnings: SyncWarning[] = [];
	const walk: LayoutWalk = {
		found: [],
		sep: "/",
		async attempt(dir, work) {
			try {
				await work();
			} catch (error) {
				warnings.push({ kind: "incomplete-walk", roots: [dir], message: `${dir}: ${(error as Error).message}` });
			}
		},
		async list(dir) {
			const f = folders.get(dir);
			if (!f) throw Object.assign(new Error(`${dir} was not picked`), { code: "ENOENT" });
			return { files: [...f.files], dirs: [...f.dirs] };
		},
		async readText(path) {
			const file = files.get(path);
			return file && file.size <= MAX_TEXT_BYTES ? file.text().catch(() => undefined) : undefined;
		},
	};
	const claimed: string[] = [];
	const listing = (dir: string): Listing => {
		const f = folders.get(dir);
		return { files: f ? [...f.files] : [], dirs: f ? [...f.dirs] : [] };
	};

	async function visit(dir: string): Promise<void> {
		const at: PickedAt = { walk, dir, here: listing(dir), listing, hasFileUnder };
		const sub = (name: string) => inFolder(walk, dir, name);
		// One folder of an agent, read whole by its layout (not "", where loose files were picked one by one).
		if (dir !== "")
			for (const agent of agentsPicked())
				if (await agent.project?.(at)) {
					claimed.push(dir);
					return;
				}
		// An agent's own folder, or the folder that holds its sessions' folder: read as the command line walks that root.
		const covered = new Set<string>();
		for (const agent of agentsPicked()) for (const name of (await agent.own?.(at)) ?? []) covered.add(name);
		for (const name of covered) if (at.here.dirs.includes(name)) claimed.push(sub(name));
		if (covered.size > 0 && dir !== "") {
			// The rest of an agent's own folder is its history, logs and settings, never sessions.
			claimed.push(dir);
			return;
		}
		for (const agent of agentsPicked()) await agent.loose?.(at);
		for (const name of at.here.dirs) if (!covered.has(name)) await visit(sub(name));
	}

	await visit("");
	return { found: walk.found, claimed, warnings };
}

/** Whether a picked file is one an agent's layout takes (a session, or a file it reads beside them), by its picked path. */
export function agentTakes(path: string): boolean {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return agentsPicked().some((agent) => agent.takes?.(path, name));
}
