/**
 * The index file opened in place (Node and Bun): SQLite reads the pages it needs through a pass-through
 * filesystem and commits each transaction to the file with a rollback journal beside it, under lookback's
 * lock files. Nothing loads, exports or copies the whole file.
 */

import { mkdirSync, renameSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { errorMessage, type InPlaceStorage, LookbackError, mountEngineFiles, openAt, type SqlJsStatic } from "../core/index.js";
import { isBuiltinEngine } from "./builtin-engine.js";
import { hostIo, lockRegistry, type NodeEngine } from "./engine.js";
import { hostFiles } from "./host-files.js";
import { IndexLocks } from "./index-locks.js";

const mounts = new WeakMap<object, Map<string, string>>();

/** The engine path of a host folder, mounted once per engine. */
function mountpointOf(engine: NodeEngine, hostDir: string): string {
	let byDir = mounts.get(engine);
	if (!byDir) mounts.set(engine, (byDir = new Map()));
	let mountpoint = byDir.get(hostDir);
	if (!mountpoint) byDir.set(hostDir, (mountpoint = mountEngineFiles(engine.FS, hostFiles(hostDir), hostDir, hostIo)));
	return mountpoint;
}

/** The engine path of a host file, its folder mounted in the engine (lookback's wasm build). */
export function enginePathOf(engine: NodeEngine, hostPath: string): string {
	const host = resolve(hostPath);
	return `${mountpointOf(engine, dirname(host))}/${basename(host)}`;
}

function inode(path: string): number | undefined {
	try {
		return statSync(path).ino;
	} catch {
		return undefined;
	}
}

/** Storage of the index in one file, opened in place, shared safely by every process that follows the lock protocol. */
export function fileStorage(path: string): InPlaceStorage & { locks: IndexLocks } {
	const host = resolve(path);
	const locks = lockRegistry.get(host) ?? new IndexLocks(host);
	let openedInode: number | undefined;
	let seenBusy = locks.counters.busy;
	return {
		locks,
		describe: () => path,
		open(sql: SqlJsStatic) {
			mkdirSync(dirname(host), { recursive: true });
			if (isBuiltinEngine(sql)) {
				const db = sql.openFile(host, locks);
				openedInode = inode(host);
				return db;
			}
			const engine = sql as NodeEngine;
			if (!engine.FS)
				throw new LookbackError(
					"engine-missing-feature",
					"an index file is opened in place only by lookback's engine build (src/node/engine.ts) or a built-in SQLite",
				);
			lockRegistry.set(host, locks);
			const db = openAt(engine, enginePathOf(engine, host));
			openedInode = inode(host);
			return db;
		},
		replaced: () => inode(host) !== openedInode,
		isBusy(error: unknown) {
			// BUSY can surface under another message (an FTS5 table loading its settings): the lock layer knows.
			const busyNow = locks.counters.busy !== seenBusy;
			seenBusy = locks.counters.busy;
			return busyNow || /database is locked/.test(errorMessage(error));
		},
		async setAside() {
			const aside = `${host}.unusable-${new Date().toISOString().replace(/[:.]/g, "-")}`;
			try {
				renameSync(host, aside);
			} catch {
				return undefined;
			}
			// A journal left beside it belongs to it: applied to the new file it would corrupt it.
			try {
				renameSync(`${host}-journal`, `${aside}-journal`);
			} catch {
				// none
			}
			return aside;
		},
	};
}
