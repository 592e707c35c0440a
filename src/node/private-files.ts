/**
 * How lookback writes a file of its own (the index's folder and locks, the archive, exports, restored sessions):
 * private whatever the umask (files 0600, folders 0700), each new file under a random name opened exclusively and
 * without following a link, so that nothing planted at a predictable name can be truncated or written through.
 */

import { randomBytes } from "node:crypto";
import {
	chmodSync,
	closeSync,
	constants,
	fchmodSync,
	fsyncSync,
	mkdirSync,
	openSync,
	renameSync,
	statSync,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** A folder (and those above it that are missing) made private; one that exists is left as it is. */
export function makePrivateDir(path: string): void {
	mkdirSync(path, { recursive: true, mode: PRIVATE_DIR });
}

/** A file or folder of lookback's that an older release left readable by others made private (when this user owns it). */
export function makePrivate(path: string, mode: number): void {
	try {
		const st = statSync(path);
		if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(path, mode);
	} catch {
		// not there, or not ours to change
	}
}

/** O_NOFOLLOW where the platform has it (not Windows). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * A new file opened for writing: created exclusively (an existing file or link at `path` fails with EEXIST, nothing
 * is followed), with exactly `mode` whatever the umask. Returns its descriptor.
 */
export function createExclusive(path: string, mode: number = PRIVATE_FILE): number {
	const fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | NOFOLLOW, mode & PRIVATE_FILE);
	try {
		fchmodSync(fd, mode);
	} catch (error) {
		closeSync(fd);
		unlinkSync(path);
		throw error;
	}
	return fd;
}

/** A name for a temp file beside `target` that no one can guess ahead: `.<name>.<random>.tmp`. */
export function tempBeside(target: string): string {
	return join(dirname(target), `.${basename(target)}.${randomBytes(9).toString("base64url")}.tmp`);
}

/** Write all of `bytes` at the descriptor's position. */
function writeAll(fd: number, bytes: Uint8Array): void {
	for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Replace `target` with `content`, private: written to a temp file beside it (random name, opened exclusively),
 * synced, then renamed over it — a link at `target` is replaced, never followed.
 */
export function writePrivateFile(target: string, content: string | Uint8Array, options: { sync?: boolean } = {}): void {
	const temp = tempBeside(target);
	const fd = createExclusive(temp);
	try {
		writeAll(fd, typeof content === "string" ? Buffer.from(content) : content);
		if (options.sync) fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		unlinkSync(temp);
		throw error;
	}
	closeSync(fd);
	try {
		renameSync(temp, target);
	} catch (error) {
		try {
			unlinkSync(temp);
		} catch {
			// gone already
		}
		throw error;
	}
}
