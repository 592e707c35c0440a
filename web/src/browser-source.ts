/**
 * Session files a person handed to the page (a picked or dropped folder, single files, or a folder handle of the
 * File System Access API), as the core's session source. Files are read by slices of their File objects.
 * Each agent's folders among them are read with its layout (picked-layout.ts); the rest as Pi's and omp's.
 * Nothing is ever purged: a browser names a folder but not its place, and Pi's and omp's are both `sessions`.
 */

import { isOpencodeDbName } from "../../src/agents/opencode/layout.js";
import { isPiSessionName, isTmpSessionFolder } from "../../src/agents/pi/layout.js";
import { type Found, inFolder, isBesideFile, type SessionFileInfo, type SessionSource, type SkippedFile } from "../../src/core/index.js";
import { agentTakes, pickedLayout } from "./picked-layout.js";

/** A file and its path relative to what was picked (`sessions/--home-dev-app--/…jsonl`, or just its name). */
export interface PickedFile {
	path: string;
	file: File;
}

const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** OpenCode keeps its sessions in a database this page does not read: it is named, not indexed. */
const isOpencodeDb = (path: string) => isOpencodeDbName(nameOf(path));

/**
 * Whether a picked file is one the scan takes: a session file of any agent (Codex's compressed rollouts, Gemini
 * CLI's chats of before 0.39 as `.json`), a file an agent keeps beside its sessions that the layouts read (a
 * project's path, Gemini's project list, a tool's spilled output), or OpenCode's database, to say it is not read
 * (`PickedFolders.takes` of each agent).
 */
export function isScanFile(path: string): boolean {
	return agentTakes(path) || isBesideFile(`/${path}`);
}

/** How deep picked folders are read: a home folder, Claude Code's projects and sub-agents nested five deep. */
export const PICKED_DEPTH = 10;

/** The files of a folder handle and its sub-folders (as deep as the agents' layouts go), by relative path. */
export async function filesOfFolder(folder: FileSystemDirectoryHandle, prefix = folder.name, depth = 0): Promise<PickedFile[]> {
	const found: PickedFile[] = [];
	const entries = (folder as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();
	for await (const entry of entries) {
		const path = `${prefix}/${entry.name}`;
		if (entry.kind === "file" && isScanFile(path)) found.push({ path, file: await (entry as FileSystemFileHandle).getFile() });
		else if (entry.kind === "directory" && depth < PICKED_DEPTH)
			found.push(...(await filesOfFolder(entry as FileSystemDirectoryHandle, path, depth + 1)));
	}
	return found;
}

/** Pi's and omp's file, from its path: a sub-agent transcript sits in a folder named like its session. */
function describe(path: string, all: ReadonlyMap<string, File>): Found {
	const parts = path.split("/");
	const root = parts.length > 1 ? parts[0] : "";
	if (path.endsWith(".gz")) return { path, root, kind: "archived" };
	const parent = parts.slice(0, -1).join("/");
	return all.has(`${parent}.jsonl`) ? { path, root, kind: "subagent", spawnedBy: `${parent}.jsonl` } : { path, root };
}

export function browserSource(
	picked: PickedFile[],
): SessionSource & { read: SessionSource["read"]; parsed: Set<string>; opencode: string[] } {
	const byPath = new Map(picked.filter((p) => isScanFile(p.path)).map((p) => [p.path, p.file]));
	/** Paths whose bytes the core read, to name the bad ones among them afterwards. */
	const parsed = new Set<string>();
	const opencode = [...byPath.keys()].filter(isOpencodeDb);
	let roots: string[] = [];
	return {
		parsed,
		opencode,
		describe: () => `files picked in this browser (${byPath.size})`,
		roots: () => roots,
		async walk() {
			const layout = await pickedLayout(byPath);
			const taken = new Set(layout.found.map((f) => f.path));
			const inClaimed = (path: string) => layout.claimed.some((dir) => path.startsWith(`${dir}/`));
			const files: SessionFileInfo[] = [];
			const skipped: SkippedFile[] = [];
			const add = (f: Found) => {
				const file = byPath.get(f.path);
				if (file) files.push({ ...f, size: file.size, mtimeMs: file.lastModified });
			};
			for (const f of layout.found) add(f);
			for (const path of byPath.keys()) {
				if (taken.has(path) || inClaimed(path) || !isPiSessionName(nameOf(path))) continue;
				if (path.split("/").slice(0, -1).some(isTmpSessionFolder)) skipped.push({ path, reason: "tmp-folder" });
				else add(describe(path, byPath));
			}
			roots = [...new Set(files.map((f) => f.root))];
			return { files, skipped, completeRoots: [], warnings: layout.warnings };
		},
		async read(path, start, end) {
			const file = byPath.get(path);
			if (!file) throw new Error(`no such file was picked: ${path}`);
			parsed.add(path);
			return new Uint8Array(await file.slice(start, end).arrayBuffer());
		},
		async readBeside(root, relative, max) {
			const file = isBesideFile(relative) ? byPath.get(inFolder({ sep: "/" }, root, relative)) : undefined;
			return file ? new Uint8Array(await file.slice(0, max).arrayBuffer()) : undefined;
		},
	};
}
