/**
 * The index file opened in place (Node and Bun): SQLite reads the pages it needs through a pass-through
 * filesystem and commits each transaction to the file with a rollback journal beside it, under lookback's
 * lock files. Nothing loads, exports or copies the whole file.
 */

import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import {
	APPLICATION_ID,
	errorMessage,
	type InPlaceStorage,
	LookbackError,
	mountEngineFiles,
	openAt,
	type SqlJsStatic,
} from "../core/index.js";
import { isBuiltinEngine } from "./builtin-engine.js";
import { hostIo, lockRegistry, type NodeEngine } from "./engine.js";
import { hostFiles } from "./host-files.js";
import { IndexLocks } from "./index-locks.js";
import { makePrivate, PRIVATE_DIR, PRIVATE_FILE } from "./private-files.js";

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

/** SQLite's header (the first 100 bytes of a database) holds its application id at byte 68, big-endian. */
const SQLITE_MAGIC = "SQLite format 3\0";

/** What a file is, by its first bytes: lookback's index, another program's SQLite database, or something else. */
function fileKind(path: string): "lookback" | "sqlite" | "other" {
	const head = Buffer.alloc(100);
	const fd = openSync(path, "r");
	let n: number;
	try {
		n = readSync(fd, head, 0, head.length, 0);
	} finally {
		closeSync(fd);
	}
	if (n < head.length || head.toString("latin1", 0, 16) !== SQLITE_MAGIC) return "other";
	return head.readUInt32BE(68) === APPLICATION_ID ? "lookback" : "sqlite";
}

/**
 * Why an index path a person named (`--index`, `LOOKBACK_INDEX`) is not one lookback may open, or undefined when
 * it may: a lookback index, or no file yet in a folder that exists (lookback makes none for it). An empty file is
 * lookback's only beside its lock folder (a first open killed before its first commit). Anything else — a file of
 * the person's, a database of another program — is refused before it is opened, never set aside or written.
 */
function givenIndexProblem(path: string): string | undefined {
	const folder = statSync(dirname(path), { throwIfNoEntry: false });
	if (!folder?.isDirectory()) return `its folder ${dirname(path)} does not exist (lookback makes no folder for an index path it is given)`;
	const st = statSync(path, { throwIfNoEntry: false });
	if (!st) return undefined;
	if (!st.isFile()) return "it is not a file";
	if (st.size === 0) return existsSync(`${path}.locks`) ? undefined : "it is an empty file lookback did not make";
	const kind = fileKind(path);
	if (kind === "lookback") return undefined;
	return kind === "sqlite" ? "it is another program's SQLite database, not a lookback index" : "it is not a lookback index";
}

function refuseGiven(path: string, problem: string): LookbackError {
	return new LookbackError("index-refused", `refusing the index ${path}: ${problem}; name a new file, or one lookback made`);
}

export interface FileStorageOptions {
	/**
	 * The path was named by a person (`--index`, `LOOKBACK_INDEX`), not lookback's own place: it is opened only
	 * when it holds a lookback index or nothing (`givenIndexProblem`), its folder is never made, and only a file
	 * whose header names it lookback's is ever set aside. lookback's own place is made private and anything unusable
	 * there is set aside and rebuilt.
	 */
	given?: boolean;
}

/** Storage of the index in one file, opened in place, shared safely by every process that follows the lock protocol. */
export function fileStorage(path: string, options: FileStorageOptions = {}): InPlaceStorage & { locks: IndexLocks } {
	const host = resolve(path);
	const given = options.given === true;
	const locks = lockRegistry.get(host) ?? new IndexLocks(host);
	let openedInode: number | undefined;
	let seenBusy = locks.counters.busy;
	return {
		locks,
		describe: () => path,
		open(sql: SqlJsStatic) {
			if (given) {
				const problem = givenIndexProblem(host);
				if (problem) throw refuseGiven(path, problem);
			} else {
				mkdirSync(dirname(host), { recursive: true, mode: PRIVATE_DIR });
				makePrivate(dirname(host), PRIVATE_DIR);
			}
			makePrivate(host, PRIVATE_FILE);
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
			// A named path is set aside only when it is lookback's (an index of another schema version, or damaged past its header).
			if (given && statSync(host, { throwIfNoEntry: false })?.size && fileKind(host) !== "lookback")
				throw refuseGiven(path, "it is not a lookback index");
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
