/**
 * The move of lookback's data from Pi's agent dir (where it lived before 0.2) to the data folder (index-path.ts).
 * The archive there holds sessions the agents deleted, so the move loses nothing, whenever it stops: it runs only
 * with the whole index held under the lock protocol (the indexer slot, PENDING with no live reader: no sync, no
 * commit, no read), as one `rename` of the folder where both lie on one file system; elsewhere (and for a test) as a
 * copy to a private folder, each file compared with its source by size and SHA-256, renamed into place, and only
 * then the old folder removed. The old place is left a symbolic link to the new one, so a process that still names
 * it (a Pi window started before the upgrade) shares the same files and locks. A process killed mid-copy leaves the
 * old folder whole and a private copy that the next move removes.
 */

import { createHash } from "node:crypto";
import {
	closeSync,
	copyFileSync,
	existsSync,
	fsyncSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	symlinkSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { Env } from "./home.js";
import { IndexLocks } from "./index-locks.js";
import { indexPlace } from "./index-path.js";

/** What became of data at the old place. */
export interface DataMove {
	from: string;
	to: string;
	/** "moved" (renamed or copied and verified), "in-use" (another process holds the index: used in place this time), "failed". */
	outcome: "moved" | "in-use" | "failed";
	how?: "rename" | "copy";
	error?: string;
}

/** The lock files of the protocol (index-locks.ts), which belong to their holders, not to the data. */
const LOCK_FILES = new Set(["shared", "reserved", "pending", "breaking", "indexer"]);

function isLockFile(rel: string): boolean {
	const [top, name] = rel.split(/[\\/]/);
	return top?.endsWith(".locks") === true && name !== undefined && LOCK_FILES.has(name);
}

/** Every regular file under `dir`, relative, the protocol's lock files left out. */
function filesUnder(dir: string, at = dir): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(at, { withFileTypes: true })) {
		const full = join(at, entry.name);
		const rel = relative(dir, full);
		if (isLockFile(rel)) continue;
		if (entry.isDirectory()) out.push(...filesUnder(dir, full));
		else if (entry.isFile()) out.push(rel);
	}
	return out;
}

function digest(path: string): string {
	return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function syncPath(path: string): void {
	const fd = openSync(path, "r");
	try {
		fsyncSync(fd);
	} catch {
		// a folder cannot be fsynced on every platform
	} finally {
		closeSync(fd);
	}
}

/** Whether every file under `from` is under `to`, with the same size and bytes. */
export function sameFiles(from: string, to: string): boolean {
	for (const rel of filesUnder(from)) {
		const a = join(from, rel);
		const b = join(to, rel);
		if (!existsSync(b) || statSync(a).size !== statSync(b).size || digest(a) !== digest(b)) return false;
	}
	return true;
}

/** A copy of `from` at `to` (new), each file made durable, then compared with its source. */
function copyVerified(from: string, to: string): void {
	const files = filesUnder(from);
	for (const rel of files) {
		const target = join(to, rel);
		mkdirSync(dirname(target), { recursive: true });
		copyFileSync(join(from, rel), target);
		syncPath(target);
	}
	if (!sameFiles(from, to)) throw new Error(`the copy at ${to} differs from ${from}`);
}

/** The old place left as a link to the new one (a junction on Windows, which needs no privilege). */
function linkBack(oldDir: string, newDir: string): void {
	try {
		symlinkSync(newDir, oldDir, process.platform === "win32" ? "junction" : "dir");
	} catch {
		// a process that named the old place made it again in that instant: it keeps its own index there
	}
}

/** Private copies left by a move that was killed; only ever removed while the index is held. */
function removeStaleCopies(newDir: string): void {
	const parent = dirname(newDir);
	if (!existsSync(parent)) return;
	for (const name of readdirSync(parent))
		if (name.startsWith(`${basename(newDir)}.moving-`)) rmSync(join(parent, name), { recursive: true, force: true });
}

/**
 * Move `oldDir` (holding `index.db`) to `newDir`, which must not exist yet. `copy` forces the copy (else used when
 * a rename crosses file systems); `allowCopy` false keeps the data in place instead of copying (a long-lived host,
 * whose start a copy of gigabytes must not hold up).
 */
export function moveData(oldDir: string, newDir: string, options: { copy?: boolean; allowCopy?: boolean } = {}): DataMove {
	const result = (outcome: DataMove["outcome"], more: Partial<DataMove> = {}): DataMove => ({ from: oldDir, to: newDir, outcome, ...more });
	const locks = new IndexLocks(join(oldDir, "index.db"));
	try {
		// The whole index held: no sync (the indexer slot), no commit and no reader (PENDING with no live SHARED).
		if (!locks.indexer() || !locks.reserved() || !locks.exclusive()) return result("in-use");
		if (existsSync(join(newDir, "index.db"))) return result("in-use");
		mkdirSync(dirname(newDir), { recursive: true });
		removeStaleCopies(newDir);
		if (existsSync(newDir)) {
			// An empty or partial folder there (made by hand, or by a process that found no index): its files stay, beside the copy.
			if (!options.copy && options.allowCopy === false) return result("in-use");
			copyVerified(oldDir, newDir);
			return finishCopy(oldDir, newDir, result);
		}
		if (!options.copy) {
			try {
				renameSync(oldDir, newDir);
				linkBack(oldDir, newDir);
				return result("moved", { how: "rename" });
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
				if (options.allowCopy === false) return result("in-use");
			}
		}
		const temp = `${newDir}.moving-${process.pid}`;
		copyVerified(oldDir, temp);
		renameSync(temp, newDir);
		syncPath(dirname(newDir));
		return finishCopy(oldDir, newDir, result);
	} catch (error) {
		return result("failed", { error: (error as Error).message });
	} finally {
		locks.release("none");
		locks.releaseIndexer();
	}
}

/** The copy verified and in place: the old folder set aside in one rename, linked back, then removed. */
function finishCopy(oldDir: string, newDir: string, result: (o: DataMove["outcome"], m?: Partial<DataMove>) => DataMove): DataMove {
	const aside = `${oldDir}.moved-${process.pid}`;
	renameSync(oldDir, aside);
	linkBack(oldDir, newDir);
	rmSync(aside, { recursive: true, force: true });
	return result("moved", { how: "copy" });
}

/**
 * The index to open, its data moved first from the place of before 0.2 when nothing holds it (else used there
 * this time, and moved by a later command).
 */
export function settledIndexPath(
	options: { indexPath?: string; agentDir?: string; env?: Env },
	move: { copy?: boolean; allowCopy?: boolean } = {},
): { path: string; move?: DataMove } {
	const place = indexPlace(options);
	if (!place.moveTo) return { path: place.path };
	const moved = moveData(dirname(place.path), place.moveTo, move);
	return { path: moved.outcome === "moved" ? join(place.moveTo, "index.db") : place.path, move: moved };
}
