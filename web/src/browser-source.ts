/**
 * Session files a person handed to the page (a picked or dropped folder, single files, or a folder handle of the
 * File System Access API), as the core's session source. Files are read by slices of their File objects.
 * Nothing is ever purged: a browser names a folder but not its place, and Pi's and omp's are both `sessions`.
 */

import { isTmpSessionFolder, type SessionFileInfo, type SessionSource, type SkippedFile } from "../../src/core/index.js";

/** A file and its path relative to what was picked (`sessions/--home-dev-app--/…jsonl`, or just its name). */
export interface PickedFile {
	path: string;
	file: File;
}

export const isSessionFile = (name: string) => name.endsWith(".jsonl") || name.endsWith(".jsonl.gz");

/** The files of a folder handle and its sub-folders (as deep as Pi's and omp's layouts go), by relative path. */
export async function filesOfFolder(folder: FileSystemDirectoryHandle, prefix = folder.name, depth = 0): Promise<PickedFile[]> {
	const found: PickedFile[] = [];
	const entries = (folder as unknown as { values(): AsyncIterable<FileSystemHandle> }).values();
	for await (const entry of entries) {
		const path = `${prefix}/${entry.name}`;
		if (entry.kind === "file" && isSessionFile(entry.name)) found.push({ path, file: await (entry as FileSystemFileHandle).getFile() });
		else if (entry.kind === "directory" && depth < 6)
			found.push(...(await filesOfFolder(entry as FileSystemDirectoryHandle, path, depth + 1)));
	}
	return found;
}

/** What the core needs to know of each file, from its path: a sub-agent transcript sits in a folder named like its session. */
function describe(path: string, all: Set<string>): Omit<SessionFileInfo, "size" | "mtimeMs"> {
	const parts = path.split("/");
	const root = parts.length > 1 ? parts[0] : "";
	if (path.endsWith(".gz")) return { path, root, kind: "archived" };
	const parent = parts.slice(0, -1).join("/");
	return all.has(`${parent}.jsonl`) ? { path, root, kind: "subagent", spawnedBy: `${parent}.jsonl` } : { path, root };
}

export function browserSource(picked: PickedFile[]): SessionSource & { read: SessionSource["read"]; parsed: Set<string> } {
	const byPath = new Map(picked.filter((p) => isSessionFile(p.path)).map((p) => [p.path, p.file]));
	const roots = [...new Set([...byPath.keys()].map((p) => (p.includes("/") ? p.split("/")[0] : "")))];
	/** Paths whose bytes the core read, to name the bad ones among them afterwards. */
	const parsed = new Set<string>();
	return {
		parsed,
		describe: () => `files picked in this browser (${byPath.size})`,
		roots: () => roots,
		async walk() {
			const all = new Set(byPath.keys());
			const files: SessionFileInfo[] = [];
			const skipped: SkippedFile[] = [];
			for (const [path, file] of byPath) {
				if (path.split("/").slice(0, -1).some(isTmpSessionFolder)) skipped.push({ path, reason: "tmp-folder" });
				else files.push({ ...describe(path, all), size: file.size, mtimeMs: file.lastModified });
			}
			return { files, skipped, completeRoots: [], warnings: [] };
		},
		async read(path, start, end) {
			const file = byPath.get(path);
			if (!file) throw new Error(`no such file was picked: ${path}`);
			parsed.add(path);
			return new Uint8Array(await file.slice(start, end).arrayBuffer());
		},
	};
}
