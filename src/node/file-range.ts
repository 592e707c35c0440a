/** Part of a session file read synchronously: the snippet of a match in the unstored middle of a long entry. */

import { closeSync, openSync, readSync } from "node:fs";

/** Bytes [start, end) of a file, or undefined when it cannot be read (gone, moved, shorter). */
export function readFileRange(path: string, start: number, end: number): Uint8Array | undefined {
	let fd: number | undefined;
	try {
		fd = openSync(path, "r");
		const bytes = new Uint8Array(Math.max(0, end - start));
		const n = readSync(fd, bytes, 0, bytes.length, start);
		return n === bytes.length ? bytes : undefined;
	} catch {
		return undefined;
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}
