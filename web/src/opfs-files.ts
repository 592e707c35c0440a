/**
 * The no-server index in the origin private file system (OPFS), as a backend of the engine's filesystem (see
 * src/core/store/engine-files.ts): SQLite reads and writes only the pages it needs, through synchronous access
 * handles, which only a worker has. Opening such a handle is async and the engine's calls are not, so this folder
 * serves two files opened beforehand: the index and its rollback journal. The journal's create and delete are
 * played on its open handle: deleted means emptied and marked absent, and a journal a crash left non-empty exists
 * (a hot journal, which SQLite rolls back).
 */

import type { EngineFiles } from "../../src/core/index.js";

/** A FileSystemSyncAccessHandle (in the WebWorker typings only). */
export interface SyncAccessHandle {
	read(into: Uint8Array, options: { at: number }): number;
	write(from: Uint8Array, options: { at: number }): number;
	truncate(size: number): void;
	getSize(): number;
	flush(): void;
	close(): void;
}

export interface OpfsHandles {
	index: SyncAccessHandle;
	journal: SyncAccessHandle;
}

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

const FOLDER = 3;

/** The folder of `name` and `name`-journal on handles opened beforehand; `attach` swaps in new ones (after a set-aside). */
export class OpfsFiles implements EngineFiles {
	private handles?: OpfsHandles;
	private journalExists = false;

	constructor(readonly name: string) {}

	attach(handles: OpfsHandles): void {
		this.handles = handles;
		this.journalExists = handles.journal.getSize() > 0;
	}

	/** Let go of the handles (the database closed), so that the files can be moved or another worker open them. */
	detach(): void {
		this.handles?.index.close();
		this.handles?.journal.close();
		this.handles = undefined;
	}

	private current(): OpfsHandles {
		if (!this.handles) throw fsError("EBADF", "the index files in this browser are closed");
		return this.handles;
	}

	private handle(handle: number): SyncAccessHandle {
		if (handle === 1) return this.current().index;
		if (handle === 2) return this.current().journal;
		throw fsError("EBADF", `no file ${handle}`);
	}

	private number(name: string): 1 | 2 {
		if (name === this.name) return 1;
		if (name === `${this.name}-journal`) return 2;
		throw fsError("ENOENT", name);
	}

	stat(name: string) {
		if (name === "") return { size: 0, ino: FOLDER, mtimeMs: 0, isDirectory: true };
		if (name !== this.name && (name !== `${this.name}-journal` || !this.journalExists)) return undefined;
		const n = this.number(name);
		return { size: this.handle(n).getSize(), ino: n, mtimeMs: 0, isDirectory: false };
	}

	open(name: string, mode: { write: boolean; create: boolean; truncate: boolean }): number {
		if (name === "") return FOLDER;
		const n = this.number(name);
		if (n === 2 && !this.journalExists) {
			if (!mode.create) throw fsError("ENOENT", name);
			this.journalExists = true;
		}
		if (mode.truncate) this.handle(n).truncate(0);
		return n;
	}

	close(): void {}

	read(handle: number, into: Uint8Array, offset: number, length: number, position: number): number {
		return this.handle(handle).read(into.subarray(offset, offset + length), { at: position });
	}

	write(handle: number, from: Uint8Array, offset: number, length: number, position: number): number {
		return this.handle(handle).write(from.subarray(offset, offset + length), { at: position });
	}

	size(handle: number): number {
		return this.handle(handle).getSize();
	}

	truncate(name: string, size: number): void {
		if (this.stat(name) === undefined) throw fsError("ENOENT", name);
		this.handle(this.number(name)).truncate(size);
	}

	sync(handle: number): void {
		if (handle !== FOLDER) this.handle(handle).flush();
	}

	create(name: string): void {
		if (this.number(name) !== 2) return;
		this.current().journal.truncate(0);
		this.journalExists = true;
	}

	unlink(name: string): void {
		if (this.number(name) !== 2) throw fsError("EPERM", `${name} is not deleted here`);
		// Emptied and flushed: SQLite's commit point with a DELETE journal is this journal ceasing to be hot.
		const journal = this.current().journal;
		journal.truncate(0);
		journal.flush();
		this.journalExists = false;
	}
}
