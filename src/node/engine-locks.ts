/**
 * SQLite's file locks in the wasm engine, backed by lookback's lock files. The engine's `fcntl` answers
 * lock calls itself and grants every one; this replaces its answer, for the index files opened in place,
 * with the levels of `IndexLocks`. SQLite's unix layer asks for byte ranges: PENDING_BYTE, RESERVED_BYTE
 * and the SHARED range after them; an unlock of the whole file drops everything.
 */

import type { IndexLocks, LockSlot } from "./index-locks.js";
import { sleepSync } from "./process-identity.js";

const PENDING_BYTE = 0x40000000;
const RESERVED_BYTE = PENDING_BYTE + 1;
const SHARED_FIRST = PENDING_BYTE + 2;
const SHARED_SIZE = 510;
const F_GETLK = 5;
const F_SETLK = 6;
const F_SETLKW = 7;
const F_RDLCK = 0;
const F_WRLCK = 1;
const F_UNLCK = 2;
/** Returned as -EAGAIN, SQLite's unix layer turns it into SQLITE_BUSY. */
const EAGAIN = 6;
const EIO = 29;

/** How long a lock call waits inside the engine before SQLite is told "busy" (readers for a commit to end, a commit for readers to leave). */
export const lockWaits = { readMs: 10_000, commitMs: 10_000 };

export interface LockHeaps {
	HEAP16: Int16Array;
	HEAP32: Int32Array;
}

function slotsOf(start: number, len: number): LockSlot[] {
	const end = len === 0 ? Number.POSITIVE_INFINITY : start + len;
	const slots: LockSlot[] = [];
	if (start <= PENDING_BYTE && PENDING_BYTE < end) slots.push("pending");
	if (start <= RESERVED_BYTE && RESERVED_BYTE < end) slots.push("reserved");
	if (start < SHARED_FIRST + SHARED_SIZE && SHARED_FIRST < end) slots.push("shared");
	return slots;
}

/** Retry `attempt` with short jittered sleeps until it succeeds or `ms` pass (blocking: engines call locks synchronously). */
export function waitFor(attempt: () => boolean, ms: number): boolean {
	const deadline = Date.now() + ms;
	let pause = 1;
	for (;;) {
		if (attempt()) return true;
		if (Date.now() >= deadline) return false;
		sleepSync(pause + Math.random() * pause);
		pause = Math.min(pause * 2, 20);
	}
}

/** SHARED for a reader, waiting (at most `lockWaits.readMs`) for a committing writer to finish. */
export function waitShared(locks: IndexLocks): boolean {
	return waitFor(() => locks.shared(), lockWaits.readMs);
}

function setLock(locks: IndexLocks, type: number, slots: LockSlot[]): boolean {
	if (type === F_UNLCK) {
		if (slots.length === 3) locks.release("none");
		else if (slots.includes("reserved")) locks.release("shared");
		else if (slots.includes("pending")) locks.releasePending();
		return true;
	}
	for (const slot of slots) {
		let ok: boolean;
		if (type === F_RDLCK) {
			if (slot === "pending") ok = waitFor(() => locks.pendingFree(), lockWaits.readMs);
			else if (slot === "shared" && locks.held.exclusive) {
				locks.downgrade();
				ok = true;
			} else ok = slot === "shared" ? waitShared(locks) : true;
		} else if (slot === "reserved") ok = locks.reserved();
		else if (slot === "pending") ok = locks.pending();
		else ok = waitFor(() => locks.exclusive(), lockWaits.commitMs);
		if (!ok) return false;
	}
	return true;
}

/**
 * Answer one `fcntl(fd, cmd, &flock)` lock call for an index file: 0, or a negative errno. `flock` is the
 * address (unsigned: the heap may grow past 2 GB) of a wasm32 `struct flock`: i16 l_type @0, i16 l_whence @2, i64 l_start @8, i64 l_len @16, i32 l_pid @24.
 */
export function answerLockCall(locks: IndexLocks, heaps: LockHeaps, cmd: number, flock: number): number {
	const { HEAP16, HEAP32 } = heaps;
	const type = HEAP16[flock >>> 1];
	const start = (HEAP32[(flock + 8) >>> 2] >>> 0) + 4294967296 * HEAP32[(flock + 12) >>> 2];
	const len = (HEAP32[(flock + 16) >>> 2] >>> 0) + 4294967296 * HEAP32[(flock + 20) >>> 2];
	const slots = slotsOf(start, len);
	try {
		if (cmd === F_GETLK) {
			for (const slot of slots) {
				const pid = locks.conflict(slot, type === F_WRLCK);
				if (pid !== undefined) {
					HEAP16[flock >>> 1] = slot === "shared" ? F_RDLCK : F_WRLCK;
					HEAP32[(flock + 24) >>> 2] = pid;
					return 0;
				}
			}
			HEAP16[flock >>> 1] = F_UNLCK;
			return 0;
		}
		if (cmd !== F_SETLK && cmd !== F_SETLKW) return -EIO;
		return setLock(locks, type, slots) ? 0 : -EAGAIN;
	} catch {
		return -EIO;
	}
}

export const FCNTL_LOCK_COMMANDS = new Set([F_GETLK, F_SETLK, F_SETLKW]);
