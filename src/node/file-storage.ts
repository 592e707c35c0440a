/**
 * The index as one file, replaced atomically: the new bytes go to a temp file in the same folder, are
 * fsynced, then renamed over the old file, so a reader sees the old index or the new, never half of one.
 */

import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { LookbackError, type IndexStorage } from "../core/index.js";
import { processAlive, withFileLock } from "./file-lock.js";

/** What identifies one version of the index file: a save renames a new file over it, so the inode changes. */
type Stamp = { ino: number; size: number; mtimeMs: number } | null;

function stampOf(path: string): Stamp {
	try {
		const s = statSync(path);
		return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

function sameStamp(a: Stamp, b: Stamp): boolean {
	return a === b || (a !== null && b !== null && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs);
}

const TEMP = /^(.+)\.(\d+)\.[0-9a-z]+\.tmp$/;
/** A temp file older than this is stale even if its process id is alive again (ids get reused). */
const STALE_MS = 10 * 60 * 1000;

/** Remove temp files a dead or long-gone writer left beside the index; returns how many. */
export function cleanStaleTemps(path: string): number {
	const dir = dirname(path);
	const base = basename(path);
	let removed = 0;
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return 0;
	}
	for (const name of names) {
		const m = TEMP.exec(name);
		if (!m || m[1] !== base) continue;
		const full = join(dir, name);
		try {
			const age = Date.now() - statSync(full).mtimeMs;
			if (Number(m[2]) === process.pid || (processAlive(Number(m[2])) && age < STALE_MS)) continue;
			rmSync(full, { force: true });
			removed++;
		} catch {
			// it went away meanwhile
		}
	}
	return removed;
}

/** Write bytes to `path` atomically (temp file, fsync, rename, fsync of the folder). */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
	mkdirSync(dirname(path), { recursive: true });
	const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
	const fd = openSync(temp, "wx", 0o644);
	try {
		let written = 0;
		while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
		fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		rmSync(temp, { force: true });
		throw error;
	}
	closeSync(fd);
	renameSync(temp, path);
	try {
		const dirFd = openSync(dirname(path), "r");
		try {
			fsyncSync(dirFd);
		} finally {
			closeSync(dirFd);
		}
	} catch {
		// not every platform can fsync a folder; the rename is still atomic
	}
}

/**
 * Storage of the index in one file, shared safely by several processes: a save holds a lock beside the file,
 * and refuses (LookbackError "index-conflict") when another process saved since this one loaded.
 */
export function fileStorage(path: string): IndexStorage {
	let loaded: Stamp = null;
	let held = false;
	const lockPath = `${path}.lock`;
	return {
		describe: () => path,
		async load() {
			cleanStaleTemps(path);
			for (;;) {
				const before = stampOf(path);
				if (before === null) {
					loaded = null;
					return null;
				}
				try {
					const bytes = new Uint8Array(await readFile(path));
					if (!sameStamp(before, stampOf(path))) continue; // replaced while being read: read the new one
					loaded = before;
					return bytes;
				} catch (error) {
					if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
				}
			}
		},
		async exclusive(fn) {
			mkdirSync(dirname(path), { recursive: true });
			return withFileLock(lockPath, async () => {
				held = true;
				try {
					return await fn();
				} finally {
					held = false;
				}
			});
		},
		changedSinceLoad: () => !sameStamp(stampOf(path), loaded),
		async save(bytes) {
			const write = () => {
				if (!sameStamp(stampOf(path), loaded)) {
					throw new LookbackError("index-conflict", `another process saved ${path} since it was loaded`);
				}
				writeFileAtomic(path, bytes);
				loaded = stampOf(path);
			};
			if (held) write();
			else {
				mkdirSync(dirname(path), { recursive: true });
				await withFileLock(lockPath, write);
			}
		},
		async setAside() {
			const aside = `${path}.unusable-${new Date().toISOString().replace(/[:.]/g, "-")}`;
			try {
				renameSync(path, aside);
				loaded = null;
				return aside;
			} catch {
				return undefined;
			}
		},
	};
}
