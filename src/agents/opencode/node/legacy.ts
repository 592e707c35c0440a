/**
 * OpenCode's JSON tree from before 1.2.0 (`<data>/storage`): `session/<projectID>/<sessionID>.json`, its messages in
 * `message/<sessionID>/<messageID>.json` and each message's parts in `part/<messageID>/<partID>.json`. OpenCode 1.2
 * copied the tree into its database at start (a copy since removed), so a tree may hold sessions the database
 * holds too: those are read from the database only. A session is one document (render.ts) whose path is
 * its session file.
 */

import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { WalkedFolders } from "../../../core/index.js";
import type { Found, WalkSink } from "../../../node/walk-dirs.js";
import { idAsName } from "../../agent.js";
import { boundedPart, type OpencodeDocument, type OpencodeMessage } from "./render.js";

/**
 * Whether a path's real path lies inside the tree's (`storage`): a folder or file of the tree swapped for a link out
 * of it is not read, nor is one an id would reach (ids are checked too: `idAsName`).
 */
function inTree(storage: string, path: string): boolean {
	try {
		const rel = relative(realpathSync(storage), realpathSync(path));
		return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
	} catch {
		return false;
	}
}

function jsonObject(path: string, storage: string): Record<string, unknown> | undefined {
	if (!inTree(storage, path)) return undefined;
	try {
		const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/** The `.json` files of a folder inside the tree, sorted (OpenCode's ids sort by time); none when the folder is not there. */
function jsonFiles(dir: string, storage: string, folders?: WalkedFolders): string[] {
	try {
		if (!inTree(storage, dir)) throw new Error("outside the tree");
		const names = readdirSync(dir)
			.filter((n) => n.endsWith(".json"))
			.sort();
		folders?.listed.push(dir);
		return names;
	} catch {
		folders?.absent.push(dir);
		return [];
	}
}

function mtimeOf(path: string): number {
	return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * The sessions of a JSON tree not already read from a database (`known` ids), each stamped by its number of
 * messages and the newest of its file's time, its message folder's and its `time.updated`.
 */
export async function walkLegacyTree(storage: string, base: Omit<Found, "path">, known: Set<string>, sink: WalkSink): Promise<void> {
	const sessions = join(storage, "session");
	let projects: string[];
	try {
		projects = readdirSync(sessions, { withFileTypes: true })
			.filter((e) => e.isDirectory())
			.map((e) => e.name);
		sink.folders.listed.push(sessions);
	} catch {
		sink.folders.absent.push(sessions);
		return;
	}
	for (const project of projects) {
		const dir = join(sessions, project);
		await sink.attempt(dir, async () => {
			for (const name of jsonFiles(dir, storage, sink.folders)) {
				const path = join(dir, name);
				const info = jsonObject(path, storage);
				// Its id names its message folder: one from the file that is no plain name (`../../etc`) is not used.
				const id = idAsName(info?.id) ?? idAsName(basename(name, ".json"));
				if (id && known.has(id)) continue;
				const messages = id ? join(storage, "message", id) : undefined;
				const updated = Number((info?.time as { updated?: unknown } | undefined)?.updated) || 0;
				const parent = idAsName(info?.parentID);
				sink.found.push({
					...base,
					path,
					rendered: true,
					size: messages ? jsonFiles(messages, storage, sink.folders).length : 0,
					mtimeMs: Math.max(mtimeOf(path), messages ? mtimeOf(messages) : 0, updated),
					...(typeof info?.directory === "string" ? { cwd: info.directory } : {}),
					...(parent ? { kind: "subagent" as const, spawnedBy: join(dir, `${parent}.json`) } : {}),
				});
			}
		});
	}
}

/** One session of a JSON tree as OpenCode exports it, from its session file. */
export function legacyDocument(sessionFile: string): OpencodeDocument | undefined {
	const storage = dirname(dirname(dirname(sessionFile)));
	const info = jsonObject(sessionFile, storage);
	if (!info) return undefined;
	const id = idAsName(info.id) ?? idAsName(basename(sessionFile, ".json"));
	const messages: OpencodeMessage[] = [];
	const folder = id ? join(storage, "message", id) : undefined;
	for (const name of folder ? jsonFiles(folder, storage) : []) {
		const message = jsonObject(join(folder as string, name), storage);
		const messageId = idAsName(message?.id) ?? idAsName(basename(name, ".json"));
		const parts = messageId ? join(storage, "part", messageId) : undefined;
		messages.push({
			info: message ?? null,
			parts: (parts ? jsonFiles(parts, storage) : []).map((p) => {
				const part = jsonObject(join(parts as string, p), storage);
				return part ? boundedPart(part) : null;
			}),
		});
	}
	return { info, messages };
}
