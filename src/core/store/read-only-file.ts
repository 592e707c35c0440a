/**
 * One read-only file as the engine's filesystem (engine-files.ts), read in fixed-size pages: what the viewer's
 * served index (web/src/range-files.ts) and a team's remote shard (team/shard-file.ts) both are to SQLite.
 */

import type { EngineFiles } from "./engine-files.js";

/** A file SQLite reads only: its size and a synchronous read of a byte range. */
export interface ReadOnlyFile {
	readonly size: number;
	read(into: Uint8Array, offset: number, length: number, position: number): number;
}

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

/**
 * Bytes `[position, position + length)` of a file of `size` bytes kept in pages of `pageBytes`, copied into
 * `into` at `offset` from the pages `page(i)` gives (the last may be short); the count copied.
 */
export function readPages(
	into: Uint8Array,
	offset: number,
	length: number,
	position: number,
	size: number,
	pageBytes: number,
	page: (i: number) => Uint8Array,
): number {
	if (position >= size) return 0;
	const total = Math.min(length, size - position);
	let done = 0;
	while (done < total) {
		const at = position + done;
		const i = Math.floor(at / pageBytes);
		const bytes = page(i);
		const from = at - i * pageBytes;
		const n = Math.min(total - done, bytes.length - from);
		into.set(bytes.subarray(from, from + n), offset + done);
		done += n;
	}
	return done;
}

/**
 * A folder holding the one read-only file `name`: writes are refused with `why` (SQLite then opens it read-only), a
 * journal never exists.
 */
export function readOnlyFolder(name: string, file: ReadOnlyFile, why: string): EngineFiles {
	const refuse = () => {
		throw fsError("EACCES", why);
	};
	return {
		stat: (n) =>
			n === ""
				? { size: 0, ino: 1, mtimeMs: 0, isDirectory: true }
				: n === name
					? { size: file.size, ino: 2, mtimeMs: 0, isDirectory: false }
					: undefined,
		open(n, mode) {
			if (mode.write) refuse();
			if (n !== "" && n !== name) throw fsError("ENOENT", n);
			return 1;
		},
		close: () => undefined,
		read: (_handle, into, offset, length, position) => file.read(into, offset, length, position),
		write: refuse,
		size: () => file.size,
		truncate: refuse,
		sync: () => undefined,
		create: refuse,
		unlink: refuse,
	};
}
