/**
 * A lock file beside the index, held only while one process checks and replaces the index file. A lock whose
 * process is gone, or that is older than a minute, is taken over.
 */

import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { LookbackError } from "../core/index.js";

const STALE_MS = 60_000;

export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

function tryAcquire(lockPath: string): boolean {
	try {
		const fd = openSync(lockPath, "wx", 0o644);
		writeSync(fd, `${process.pid} ${Date.now()}\n`);
		closeSync(fd);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		return false;
	}
}

/** A lock file without its "pid time" line after this long was left by a process killed while taking it. */
const UNWRITTEN_MS = 2_000;

/** Whether an existing lock was left by a dead process or is too old to trust. */
function stale(lockPath: string): boolean {
	try {
		const [pid, time] = readFileSync(lockPath, "utf8").trim().split(" ").map(Number);
		if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(time)) return Date.now() - statSync(lockPath).mtimeMs > UNWRITTEN_MS;
		return !processAlive(pid) || Date.now() - time > STALE_MS;
	} catch {
		return false; // it went away meanwhile: try again
	}
}

/** Run `fn` holding the lock; waits up to `timeoutMs` for another holder. */
export async function withFileLock<T>(lockPath: string, fn: () => T | Promise<T>, timeoutMs = 30_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (!tryAcquire(lockPath)) {
		if (stale(lockPath)) {
			rmSync(lockPath, { force: true });
			continue;
		}
		if (Date.now() > deadline) throw new LookbackError("io", `the index is locked by another process (${lockPath}); try again`);
		await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
	}
	try {
		return await fn();
	} finally {
		rmSync(lockPath, { force: true });
	}
}
