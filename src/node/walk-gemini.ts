/**
 * Gemini CLI's folders under `<home>/.gemini/tmp`: one folder per project, named by a slug of its basename
 * (0.29+, with a `.project_root` file naming the folder) or by the SHA-256 of its path (before). In its `chats/`:
 * `session-<time>-<id8>.jsonl` (0.39+) or `.json` (before; a `.json` carried over to `.jsonl` on resume is
 * read once, as the `.jsonl`), and sub-agents' chats in `chats/<parentSessionId>/<id>.jsonl`.
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, sep } from "node:path";
import { type Found, listDir, type WalkSink } from "./walk-dirs.js";

function isChat(name: string): boolean {
	return name.startsWith("session-") && (name.endsWith(".jsonl") || name.endsWith(".json"));
}

/** Project folder name → project path, from `<gemini>/projects.json` (path → slug); a hashed folder by its path's SHA-256. */
function projectRegistry(geminiDir: string): Map<string, string> {
	const byFolder = new Map<string, string>();
	try {
		const data = JSON.parse(readFileSync(join(geminiDir, "projects.json"), "utf8")) as { projects?: Record<string, unknown> };
		for (const [path, slug] of Object.entries(data.projects ?? {})) {
			if (typeof slug === "string") byFolder.set(slug, path);
			byFolder.set(createHash("sha256").update(path).digest("hex"), path);
		}
	} catch {
		// no registry (older CLI) or not readable: the .project_root files, when there, still name the folders
	}
	return byFolder;
}

function projectRoot(dir: string, folder: string, registry: Map<string, string>): string | undefined {
	try {
		const path = readFileSync(join(dir, ".project_root"), "utf8").trim();
		if (isAbsolute(path)) return path;
	} catch {
		// not a slug folder, or written before 0.29
	}
	return registry.get(folder);
}

async function chatsFolder(chats: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	const { files, dirs } = await listDir(chats, sink.folders);
	const names = new Set(files.filter(isChat));
	for (const name of [...names].sort()) {
		if (name.endsWith(".json") && names.has(`${name}l`)) continue;
		// chats is already normalised: a plain concatenation is far cheaper than join() over thousands of files
		sink.found.push({ ...base, path: `${chats}${sep}${name}` });
	}
	// A sub-agent's folder is named by its parent's full session id; the parent's file name holds its first 8 characters.
	const jsonl = [...names].filter((n) => n.endsWith(".jsonl")).sort();
	for (const parentId of dirs) {
		const short = `-${parentId.slice(0, 8)}.jsonl`;
		const parent = jsonl.find((n) => n.endsWith(short)) ?? [...names].sort().find((n) => n.endsWith(`-${parentId.slice(0, 8)}.json`));
		const dir = join(chats, parentId);
		await sink.attempt(dir, async () => {
			for (const name of (await listDir(dir, sink.folders)).files.filter((n) => n.endsWith(".jsonl") || n.endsWith(".json")).sort()) {
				sink.found.push({ ...base, path: join(dir, name), kind: "subagent", ...(parent ? { spawnedBy: join(chats, parent) } : {}) });
			}
		});
	}
}

/** Walk `<gemini>/tmp`: one folder per project, its chats in `chats/`. */
export async function walkGemini(tmp: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	const top = await listDir(tmp, sink.folders);
	const registry = projectRegistry(dirname(tmp));
	for (const folder of top.dirs) {
		const dir = join(tmp, folder);
		const chats = join(dir, "chats");
		await sink.attempt(chats, async () => {
			try {
				const cwd = projectRoot(dir, folder, registry);
				await chatsFolder(chats, cwd ? { ...base, cwd } : base, sink);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			}
		});
	}
}
