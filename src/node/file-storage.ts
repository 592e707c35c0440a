/**
 * The index as one file, replaced atomically: the new bytes go to a temp file in the same folder, are
 * fsynced, then renamed over the old file, so a reader sees the old index or the new, never half of one.
 */

import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { IndexStorage } from "../core/index.js";

const TEMP = /^(.+)\.(\d+)\.[0-9a-z]+\.tmp$/;
/** A temp file older than this is stale even if its process id is alive again (ids get reused). */
const STALE_MS = 10 * 60 * 1000;

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

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

/** Storage of the index in one file. */
export function fileStorage(path: string): IndexStorage {
	return {
		describe: () => path,
		async load() {
			cleanStaleTemps(path);
			try {
				return new Uint8Array(await readFile(path));
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
				throw error;
			}
		},
		async save(bytes) {
			writeFileAtomic(path, bytes);
		},
		async setAside(reason) {
			const aside = `${path}.unusable-${new Date().toISOString().replace(/[:.]/g, "-")}`;
			try {
				renameSync(path, aside);
				return aside;
			} catch {
				void reason;
				return undefined;
			}
		},
	};
}
