/**
 * The no-server index kept in the origin private file system (OPFS) and opened in place, as on Node: each
 * transaction commits to the file through a rollback journal, and a search reads only the pages it needs, so
 * the index may be far larger than the worker's memory. One worker holds the files' synchronous handles, which
 * lock them: a second tab of the page cannot open them and is told so (see OpfsInUse).
 */

import { type EngineIoCounters, type FilesEngine, type InPlaceStorage, mountEngineFiles, openAt } from "../../src/core/index.js";
import { OpfsFiles, type OpfsHandles, type SyncAccessHandle } from "./opfs-files.js";

const FOLDER = "lookback";
const NAME = "index.db";

type OpfsFileHandle = FileSystemFileHandle & {
	createSyncAccessHandle(): Promise<SyncAccessHandle>;
	move?(name: string): Promise<void>;
};

/** Another tab (its worker) holds the index files: their handles lock them. */
export class OpfsInUse extends Error {
	constructor() {
		super("another tab of this page holds the index kept in this browser (OPFS)");
	}
}

export interface OpfsStorage extends InPlaceStorage {
	/** Reads and writes of the index files, counted. */
	counters: EngineIoCounters;
	/** Current size of the index file. */
	bytes(): number;
	/** Replace the index file with `bytes` (the database closed); the one replaced is kept under another name, returned. */
	replace(bytes: Uint8Array): Promise<string | undefined>;
	/** Write `bytes` as the index when the file is still empty (no index yet); whether it did. */
	adopt(bytes: Uint8Array): boolean;
}

/** Whether this worker can keep the index in OPFS (synchronous access handles are there). */
export function hasOpfs(): boolean {
	return typeof (globalThis as { FileSystemSyncAccessHandle?: unknown }).FileSystemSyncAccessHandle === "function";
}

async function fileHandle(dir: FileSystemDirectoryHandle, name: string): Promise<OpfsFileHandle> {
	return (await dir.getFileHandle(name, { create: true })) as OpfsFileHandle;
}

/** Sync handles of the index and its journal. A page reloaded a moment ago may still hold them: ask a few times. */
async function openHandles(dir: FileSystemDirectoryHandle): Promise<OpfsHandles> {
	for (let attempt = 0; ; attempt++) {
		let index: SyncAccessHandle | undefined;
		try {
			index = await (await fileHandle(dir, NAME)).createSyncAccessHandle();
			const journal = await (await fileHandle(dir, `${NAME}-journal`)).createSyncAccessHandle();
			return { index, journal };
		} catch (error) {
			index?.close();
			if ((error as DOMException).name !== "NoModificationAllowedError") throw error;
			if (attempt >= 10) throw new OpfsInUse();
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
}

/** Move `name` to `to` in `dir` (a copy, then removed, where handles cannot move). */
async function rename(dir: FileSystemDirectoryHandle, name: string, to: string): Promise<void> {
	const from = await fileHandle(dir, name);
	if (from.move) return from.move(to);
	const writable = await (await fileHandle(dir, to)).createWritable();
	await (await from.getFile()).stream().pipeTo(writable);
	await dir.removeEntry(name);
}

let opened = 0;

/** Open the index files in OPFS (created when missing) and mount them in the engine. */
export async function openOpfsStorage(engine: FilesEngine): Promise<OpfsStorage> {
	const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(FOLDER, { create: true });
	const files = new OpfsFiles(NAME);
	files.attach(await openHandles(dir));
	const counters: EngineIoCounters = { reads: 0, bytesRead: 0, writes: 0, fsyncs: 0 };
	const mountpoint = mountEngineFiles(engine.FS, files, `opfs${++opened}`, counters);
	const fill = (index: SyncAccessHandle, bytes: Uint8Array) => {
		index.truncate(0);
		index.write(bytes, { at: 0 });
		index.flush();
	};
	/** Move the index and its journal (which belongs to it) to `prefix`-time, and open fresh files (holding `bytes`). */
	const moveAside = async (prefix: string, bytes?: Uint8Array): Promise<string | undefined> => {
		const aside = `${NAME}.${prefix}-${new Date().toISOString().replace(/[:.]/g, "-")}`;
		files.detach();
		let moved = false;
		try {
			await rename(dir, NAME, aside);
			moved = true;
			await rename(dir, `${NAME}-journal`, `${aside}-journal`);
		} catch {
			// not moved: the index stays as it is; a journal left behind belongs to the index moved, not to the new one
		}
		const handles = await openHandles(dir);
		if (moved) handles.journal.truncate(0);
		if (moved && bytes) fill(handles.index, bytes);
		files.attach(handles);
		return moved ? `OPFS ${FOLDER}/${aside}` : undefined;
	};
	return {
		counters,
		describe: () => `this browser's private files (OPFS) ${FOLDER}/${NAME}`,
		open: () => openAt(engine, `${mountpoint}/${NAME}`),
		// The handles lock the files: nobody else writes or replaces them while this worker holds them.
		replaced: () => false,
		isBusy: () => false,
		setAside: () => moveAside("unusable"),
		replace: (bytes) => moveAside("replaced", bytes),
		bytes: () => files.stat(NAME)?.size ?? 0,
		adopt(bytes) {
			if (files.stat(NAME)?.size !== 0 || files.stat(`${NAME}-journal`)) return false;
			const handle = files.open(NAME, { write: true, create: false, truncate: false });
			files.write(handle, bytes, 0, bytes.length, 0);
			files.sync(handle);
			return true;
		},
	};
}
