/**
 * Which of the files a person picked are which agent's sessions. A browser tells a folder's name, not its place, so
 * each agent's folders are found by their shape wherever they sit in what was picked (a home folder, an agent's own
 * folder, its sessions folder, one project) and read with that agent's layout from core, as the command line reads
 * them on disk: Claude Code's `projects/`, Codex's `sessions/` and `archived_sessions/`, Gemini CLI's `tmp/`. An
 * agent's own folder picked whole gives its sessions only (not its history, logs or settings). What no agent's
 * folder holds is left to Pi's and omp's layout (browser-source.ts).
 */

import {
	claudeProject,
	codexArchived,
	type Found,
	folderOf,
	geminiProject,
	geminiProjects,
	inFolder,
	isClaudeProject,
	isGeminiChats,
	isRollout,
	type LayoutWalk,
	type Listing,
	rollouts,
	type SyncWarning,
	walkClaude,
	walkCodex,
	walkGemini,
} from "../../src/core/index.js";

/** What the agents' layouts made of the picked files. */
export interface PickedLayout {
	/** Session files of Claude Code, Codex and Gemini CLI, with their agent, kind and spawner. */
	found: Found[];
	/** Folders an agent's layout read whole: no other file in them is a session. */
	claimed: string[];
	warnings: SyncWarning[];
}

/** The largest file beside the sessions read as text (a project's path, Gemini's project list). */
const MAX_TEXT_BYTES = 1 << 20;

const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

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

/** Read the picked files (`files`: path → File) with the agents' layouts. */
export async function pickedLayout(files: ReadonlyMap<string, File>): Promise<PickedLayout> {
	const folders = foldersOf(files.keys());
	const withRollouts = new Set<string>();
	for (const path of files.keys())
		if (isRollout(nameOf(path))) for (let d = path; d !== ""; ) withRollouts.add((d = folderOf({ sep: "/" }, d)));
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
	const isGeminiProject = (dir: string) => isGeminiChats("chats", listing(inFolder(walk, dir, "chats")));

	async function visit(dir: string): Promise<void> {
		const here = listing(dir);
		const sub = (name: string) => inFolder(walk, dir, name);
		// One folder of an agent, read whole by its layout (not "", where loose files were picked one by one).
		if (dir !== "" && isClaudeProject(here)) {
			claimed.push(dir);
			return claudeProject(dir, { root: folderOf(walk, dir), agent: "claude" }, walk);
		}
		if (dir !== "" && isGeminiProject(dir)) {
			claimed.push(dir);
			const tmp = folderOf(walk, dir);
			return geminiProject(dir, { root: tmp, agent: "gemini" }, await geminiProjects(folderOf(walk, tmp), walk), walk);
		}
		// An agent's own folder, or the folder that holds its sessions' folder: read as the command line walks that root.
		const covered = new Set<string>();
		const projects = sub("projects");
		if (here.dirs.includes("projects") && listing(projects).dirs.some((p) => isClaudeProject(listing(inFolder(walk, projects, p))))) {
			covered.add("projects");
			await walk.attempt(projects, () => walkClaude(projects, { root: projects, agent: "claude" }, walk));
		}
		if (here.dirs.some((d) => (d === "sessions" || d === "archived_sessions") && withRollouts.has(sub(d)))) {
			covered.add("sessions").add("archived_sessions");
			await walk.attempt(dir, () => walkCodex(dir, { root: dir, agent: "codex" }, walk));
		}
		const tmp = sub("tmp");
		if (here.dirs.includes("tmp") && listing(tmp).dirs.some((p) => isGeminiProject(inFolder(walk, tmp, p)))) {
			covered.add("tmp");
			await walk.attempt(tmp, () => walkGemini(tmp, { root: tmp, agent: "gemini" }, walk));
		}
		if (dir === "" && isGeminiChats("chats", listing("chats"))) {
			// A project's chats/ picked alone.
			covered.add("chats");
			await geminiProject("", { root: "", agent: "gemini" }, new Map(), walk);
		}
		for (const name of covered) if (here.dirs.includes(name)) claimed.push(sub(name));
		if (covered.size > 0 && dir !== "") {
			// The rest of an agent's own folder is its history, logs and settings, never sessions.
			claimed.push(dir);
			return;
		}
		// Rollouts picked without their home (a dated folder, or single files): Codex's by their names.
		if (here.files.some(isRollout)) {
			const base = { root: dir, agent: "codex" as const };
			if (nameOf(dir) === "archived_sessions") await codexArchived(dir, base, walk);
			else for (const name of rollouts(here.files)) walk.found.push({ ...base, path: sub(name) });
		}
		for (const name of here.dirs) if (!covered.has(name)) await visit(sub(name));
	}

	await visit("");
	return { found: walk.found, claimed, warnings };
}
