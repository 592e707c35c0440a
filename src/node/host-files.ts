/** The engine's files backed by a real folder (Node and Bun): every read and write at its position in the real file. */

import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { EngineFiles } from "../core/index.js";
import { PRIVATE_FILE } from "./private-files.js";

export function hostFiles(dir: string): EngineFiles {
	const path = (name: string) => (name === "" ? dir : join(dir, name));
	return {
		stat(name) {
			const st = statSync(path(name), { throwIfNoEntry: false });
			return st ? { size: st.size, ino: st.ino, mtimeMs: st.mtimeMs, isDirectory: st.isDirectory() } : undefined;
		},
		open(name, mode) {
			if (name === "") return openSync(dir, "r");
			let flags = mode.write ? constants.O_RDWR : constants.O_RDONLY;
			if (mode.create) flags |= constants.O_CREAT;
			if (mode.truncate) flags |= constants.O_TRUNC;
			return openSync(path(name), flags, PRIVATE_FILE);
		},
		close: (handle) => closeSync(handle),
		read: (handle, into, offset, length, position) => readSync(handle, into, offset, length, position),
		write: (handle, from, offset, length, position) => writeSync(handle, from, offset, length, position),
		size: (handle) => fstatSync(handle).size,
		truncate(name, size) {
			const fd = openSync(path(name), "r+");
			try {
				ftruncateSync(fd, size);
			} finally {
				closeSync(fd);
			}
		},
		sync(handle) {
			try {
				fsyncSync(handle);
			} catch (error) {
				// not every platform can fsync a folder
				if (!fstatSync(handle).isDirectory()) throw error;
			}
		},
		create: (name) => closeSync(openSync(path(name), constants.O_CREAT | constants.O_WRONLY, PRIVATE_FILE)),
		unlink: (name) => unlinkSync(path(name)),
	};
}
