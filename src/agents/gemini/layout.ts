/**
 * Gemini CLI's folders under `<home>/.gemini/tmp`: one folder per project, named by a slug of its basename
 * (0.29+, with a `.project_root` file naming the folder) or by the SHA-256 of its path (before). In its `chats/`:
 * `session-<time>-<id8>.jsonl` (0.39+) or `.json` (before; a `.json` carried over to `.jsonl` on resume is
 * read once, as the `.jsonl`), and sub-agents' chats in `chats/<parentSessionId>/<id>.jsonl`.
 */

import { type Found, folderOf, ifThere, inFolder, type LayoutWalk, type Listing } from "../../core/parse/layout.js";

function isChat(name: string): boolean {
	return name.startsWith("session-") && (name.endsWith(".jsonl") || name.endsWith(".json"));
}

/** Whether a folder is the `chats/` folder of a Gemini CLI project: it holds a chat. */
export function isGeminiChats(name: string, listing: Listing): boolean {
	return name === "chats" && listing.files.some(isChat);
}

/** Hashes of project paths made so far: a walk hashes every path of the registry, and a sync walks again and again. */
const hashes = new Map<string, Promise<string>>();

/** A SHA-256 in hex (Web Crypto: in Node 20+, Bun and every browser). */
function sha256(text: string): Promise<string> {
	let hash = hashes.get(text);
	if (!hash) {
		hash = crypto.subtle
			.digest("SHA-256", new TextEncoder().encode(text))
			.then((digest) => Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(""));
		hashes.set(text, hash);
	}
	return hash;
}

/** Project folder name → project path, from `<gemini>/projects.json` (path → slug); a hashed folder by its path's SHA-256. */
export async function geminiProjects(geminiDir: string, walk: LayoutWalk): Promise<Map<string, string>> {
	const byFolder = new Map<string, string>();
	try {
		const text = await walk.readText(inFolder(walk, geminiDir, "projects.json"));
		const data = (text === undefined ? {} : JSON.parse(text)) as { projects?: Record<string, unknown> };
		for (const [path, slug] of Object.entries(data.projects ?? {})) {
			if (typeof slug === "string") byFolder.set(slug, path);
			byFolder.set(await sha256(path), path);
		}
	} catch {
		// not readable as JSON: the .project_root files, when there, still name the folders
	}
	return byFolder;
}

/** Whether a path is absolute on any system a session was written on. */
function isAbsolute(path: string): boolean {
	return /^(?:\/|\\\\|[A-Za-z]:[\\/])/.test(path);
}

/** The project folder's path: its `.project_root` (0.29+), or what the registry says of its name. */
async function projectRoot(dir: string, folder: string, registry: Map<string, string>, walk: LayoutWalk): Promise<string | undefined> {
	const path = (await walk.readText(inFolder(walk, dir, ".project_root")))?.trim();
	return path && isAbsolute(path) ? path : registry.get(folder);
}

async function chatsFolder(chats: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const { files, dirs } = await walk.list(chats);
	const names = new Set(files.filter(isChat));
	for (const name of [...names].sort()) {
		if (name.endsWith(".json") && names.has(`${name}l`)) continue;
		walk.found.push({ ...base, path: inFolder(walk, chats, name) });
	}
	// A sub-agent's folder is named by its parent's full session id; the parent's file name holds its first 8 characters.
	const jsonl = [...names].filter((n) => n.endsWith(".jsonl")).sort();
	for (const parentId of dirs) {
		const short = `-${parentId.slice(0, 8)}.jsonl`;
		const parent = jsonl.find((n) => n.endsWith(short)) ?? [...names].sort().find((n) => n.endsWith(`-${parentId.slice(0, 8)}.json`));
		const dir = inFolder(walk, chats, parentId);
		await walk.attempt(dir, async () => {
			for (const name of (await walk.list(dir)).files.filter((n) => n.endsWith(".jsonl") || n.endsWith(".json")).sort()) {
				const spawnedBy = parent ? { spawnedBy: inFolder(walk, chats, parent) } : {};
				walk.found.push({ ...base, path: inFolder(walk, dir, name), kind: "subagent", ...spawnedBy });
			}
		});
	}
}

/** One project folder (`<dir>/chats/`), named `folder` in `tmp/`, its path found in `registry` when it has no `.project_root`. */
export async function geminiProject(
	dir: string,
	base: Omit<Found, "path">,
	registry: Map<string, string>,
	walk: LayoutWalk,
): Promise<void> {
	const chats = inFolder(walk, dir, "chats");
	await walk.attempt(chats, () =>
		ifThere(async () => {
			const cwd = await projectRoot(dir, dir.slice(dir.lastIndexOf(walk.sep) + 1), registry, walk);
			await chatsFolder(chats, cwd ? { ...base, cwd } : base, walk);
		}),
	);
}

/** Walk `<gemini>/tmp`: one folder per project, its chats in `chats/`. */
export async function walkGemini(tmp: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const top = await walk.list(tmp);
	const registry = await geminiProjects(folderOf(walk, tmp), walk);
	for (const folder of top.dirs) await geminiProject(inFolder(walk, tmp, folder), base, registry, walk);
}
