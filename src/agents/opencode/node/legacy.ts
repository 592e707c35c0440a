/**
 * OpenCode's JSON tree from before 1.2.0 (`<data>/storage`): `session/<projectID>/<sessionID>.json`, its messages in
 * `message/<sessionID>/<messageID>.json` and each message's parts in `part/<messageID>/<partID>.json`. OpenCode 1.2
 * copied the tree into its database at start (a copy since removed), so a tree may hold sessions the database
 * holds too: those are read from the database only. A session is one document (render.ts) whose path is
 * its session file.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { WalkedFolders } from "../../../core/index.js";
import type { Found, WalkSink } from "../../../node/walk-dirs.js";
import { boundedPart, type OpencodeDocument, type OpencodeMessage } from "./render.js";

function jsonObject(path: string): Record<string, unknown> | undefined {
	try {
		const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/** The `.json` files of a folder, sorted (OpenCode's ids sort by time); none when the folder is not there. */
function jsonFiles(dir: string, folders?: WalkedFolders): string[] {
	try {
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
			for (const name of jsonFiles(dir, sink.folders)) {
				const path = join(dir, name);
				const info = jsonObject(path);
				const id = typeof info?.id === "string" ? info.id : basename(name, ".json");
				if (known.has(id)) continue;
				const messages = join(storage, "message", id);
				const updated = Number((info?.time as { updated?: unknown } | undefined)?.updated) || 0;
				const parent = typeof info?.parentID === "string" ? info.parentID : undefined;
				sink.found.push({
					...base,
					path,
					rendered: true,
					size: jsonFiles(messages, sink.folders).length,
					mtimeMs: Math.max(mtimeOf(path), mtimeOf(messages), updated),
					...(typeof info?.directory === "string" ? { cwd: info.directory } : {}),
					...(parent ? { kind: "subagent" as const, spawnedBy: join(dir, `${parent}.json`) } : {}),
				});
			}
		});
	}
}

/** One session of a JSON tree as OpenCode exports it, from its session file. */
export function legacyDocument(sessionFile: string): OpencodeDocument | undefined {
	const info = jsonObject(sessionFile);
	if (!info) return undefined;
	const storage = dirname(dirname(dirname(sessionFile)));
	const id = typeof info.id === "string" ? info.id : basename(sessionFile, ".json");
	const messages: OpencodeMessage[] = [];
	const folder = join(storage, "message", id);
	for (const name of jsonFiles(folder)) {
		const message = jsonObject(join(folder, name));
		const messageId = typeof message?.id === "string" ? message.id : basename(name, ".json");
		const parts = join(storage, "part", messageId);
		messages.push({
			info: message ?? null,
			parts: jsonFiles(parts).map((p) => {
				const part = jsonObject(join(parts, p));
				return part ? boundedPart(part) : null;
			}),
		});
	}
	return { info, messages };
}
