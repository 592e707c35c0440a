/**
 * OpenCode's sessions: each session of its database (`<data>/opencode.db`, `opencode-<channel>.db` of other
 * channels' builds, or the file `OPENCODE_DB` names) is one file to the rest of lookback, at the virtual path
 * `<database>/<session id>` (a sub-agent's under its parent's, `<database>/<parent>/<child>`, as omp keeps a
 * session's sub-agents in a folder named like it), and each session of the JSON tree of releases before 1.2.0
 * (`<data>/storage`) one at its session file. Neither has a size or time of its own: the walk stamps each with its number of messages and its
 * last update, so an unchanged session is not read again and a changed one is read again whole.
 */

import { statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { LookbackError } from "../../../core/index.js";
import { type Found, listDir, type WalkSink } from "../../../node/walk-dirs.js";
import type { AgentWalk } from "../../node-agent.js";
import { isOpencodeDbName } from "../layout.js";
import { OpencodeDb } from "./db.js";
import { legacyDocument, walkLegacyTree } from "./legacy.js";
import { databaseOf, OPENCODE_MAX_NESTING } from "./paths.js";
import { documentBytes } from "./render.js";

/** The sessions of one database, at `<database>/<id>` (a sub-agent under its parent's path); their ids go into `seen`. */
async function walkDb(db: string, base: Omit<Found, "path">, seen: Set<string>, sink: WalkSink): Promise<void> {
	await sink.attempt(db, async () => {
		// A database OpenCode has only just created holds nothing yet.
		if (statSync(db).size === 0) return;
		const sessions = (await OpencodeDb.open(db)).sessions();
		const parents = new Map(sessions.map((s) => [s.id, s.parentId]));
		const pathOf = (id: string): string => {
			const chain = [id];
			for (let p = parents.get(id); p && chain.length < OPENCODE_MAX_NESTING && !chain.includes(p); p = parents.get(p)) chain.unshift(p);
			return [db, ...chain].join(sep);
		};
		for (const s of sessions) {
			seen.add(s.id);
			const path = pathOf(s.id);
			sink.found.push({
				...base,
				path,
				rendered: true,
				size: s.messages,
				mtimeMs: s.updated,
				...(s.directory ? { cwd: s.directory } : {}),
				...(s.parentId ? { kind: "subagent" as const, spawnedBy: dirname(path) } : {}),
			});
		}
	});
}

/** What an agent that keeps OpenCode's rows keeps in its data folder: its databases' names, and whether it may hold the JSON tree. */
interface StoreFolder {
	isDbName(name: string): boolean;
	legacyTree: boolean;
}

/** The walk of a root of an agent that keeps OpenCode's rows: a database file, or its data folder (its databases, then its JSON tree). */
export function storeWalk(folder: StoreFolder): AgentWalk {
	return async (root, base, sink) => {
		const seen = new Set<string>();
		if (statSync(root).isFile()) {
			// The database's write-ahead log beside it changes first: its folder is what a watcher must see.
			sink.folders.listed.push(dirname(root));
			return walkDb(root, base, seen, sink);
		}
		const top = await listDir(root, sink.folders);
		for (const name of top.files.filter(folder.isDbName).sort()) await walkDb(join(root, name), base, seen, sink);
		if (folder.legacyTree && top.dirs.includes("storage")) await walkLegacyTree(join(root, "storage"), base, seen, sink);
	};
}

/** Walk an OpenCode root: a database file, or the data folder (its databases, then its JSON tree of releases before 1.2). */
export const walkOpencode: AgentWalk = storeWalk({ isDbName: isOpencodeDbName, legacyTree: true });

/** The document of a session a store's walk found (`path` already checked to lie inside a walked root). */
export async function readOpencodeDocument(path: string): Promise<Uint8Array> {
	const db = databaseOf(path);
	const doc = db ? (await OpencodeDb.open(db)).session(basename(path)) : legacyDocument(path);
	if (!doc) throw new LookbackError("session-not-found", `no OpenCode session at ${path}`);
	return documentBytes(doc);
}
