/**
 * A filesystem mounted inside the engine (Emscripten's FS, exported by lookback's build), so that SQLite
 * opens an index where it lies and reads only the pages it needs. What lies behind it is a backend of a few
 * calls on the files of one folder: real files on Node and Bun (src/node/host-files.ts), and it is the seam
 * where a read-only backend serving a file by ranges plugs in. A backend throws errors with a Node-style
 * `code` ("ENOENT", "EACCES", …); anything else thrown inside the engine would abort it.
 */

import { LookbackError } from "../errors.js";
import type { Database, SqlJsStatic } from "./engine.js";

export interface EngineFileStat {
	size: number;
	/** Identity of the file: SQLite shares one lock state between its connections to the same file. */
	ino: number;
	mtimeMs: number;
	isDirectory: boolean;
}

/** The files of one folder, by name ("" is the folder itself). Handles are the backend's own numbers. */
export interface EngineFiles {
	stat(name: string): EngineFileStat | undefined;
	open(name: string, mode: { write: boolean; create: boolean; truncate: boolean }): number;
	close(handle: number): void;
	read(handle: number, into: Uint8Array, offset: number, length: number, position: number): number;
	write(handle: number, from: Uint8Array, offset: number, length: number, position: number): number;
	/** Current size of an open file. */
	size(handle: number): number;
	truncate(name: string, size: number): void;
	sync(handle: number): void;
	/** Create an empty file (SQLite's journal). */
	create(name: string): void;
	unlink(name: string): void;
}

/** lookback's engine build: sql.js with Emscripten's FS and the few SQLite calls a mounted file needs. */
export type FilesEngine = SqlJsStatic & {
	FS: EmscriptenFS;
	HEAP32: Int32Array;
	_sqlite3_close_v2: (db: number) => number;
	_sqlite3_extended_errcode: (db: number) => number;
	_RegisterExtensionFunctions: (db: number) => number;
	_malloc: (n: number) => number;
	_free: (p: number) => void;
	cwrap: (name: string, returns: string | null, args: string[]) => (...args: unknown[]) => unknown;
};

/** Whether a module is lookback's engine build with its filesystem exported. */
export function hasEngineFiles(sql: SqlJsStatic): sql is FilesEngine {
	return typeof (sql as Partial<FilesEngine>).FS?.mount === "function";
}

/** A sql.js Database whose connection is the file at `enginePath` (a mounted path) instead of an in-memory copy. */
export function openAt(engine: FilesEngine, enginePath: string): Database {
	const db = new engine.Database() as Database & { db: number };
	engine._sqlite3_close_v2(db.db);
	const open = engine.cwrap("sqlite3_open", "number", ["string", "number"]) as (path: string, out: number) => number;
	const out = engine._malloc(4);
	try {
		const rc = open(enginePath, out);
		db.db = engine.HEAP32[out >>> 2];
		if (rc !== 0) {
			const code = engine._sqlite3_extended_errcode(db.db);
			engine._sqlite3_close_v2(db.db);
			throw new LookbackError("io", `cannot open the index (SQLite error ${code})`);
		}
	} finally {
		engine._free(out);
	}
	engine._RegisterExtensionFunctions(db.db);
	return db;
}

/** Counted I/O, for tests that assert how little was read. */
export interface EngineIoCounters {
	reads: number;
	bytesRead: number;
	writes: number;
	fsyncs: number;
}

/** The part of Emscripten's FS object the mount uses. */
export interface EmscriptenFS {
	mkdir(path: string): void;
	mount(type: object, options: object, mountpoint: string): void;
	createNode(parent: FsNode | null, name: string, mode: number, dev: number): FsNode;
	hashRemoveNode(node: FsNode): void;
	getStream(fd: number): { node: FsNode } | null | undefined;
	ErrnoError: new (errno: number) => Error;
}

export interface FsNode {
	id: number;
	mode: number;
	/** The file's name in the backend's folder ("" for the folder). */
	file: string;
	/** The backend's key for the folder: which files this node belongs to. */
	backend: string;
	node_ops: object;
	stream_ops: object;
}

interface Stream {
	node: FsNode;
	flags: number;
	position: number;
	handle?: number;
}

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const O_ACCMODE = 3;
const O_CREAT = 0o100;
const O_TRUNC = 0o1000;
const ERRNO: Record<string, number> = {
	ENOENT: 44,
	EEXIST: 20,
	EACCES: 2,
	EPERM: 63,
	EBADF: 8,
	EINVAL: 28,
	EISDIR: 31,
	ENOTDIR: 54,
	ENOSPC: 51,
	EROFS: 69,
	EDQUOT: 19,
	EIO: 29,
	EMFILE: 33,
	ENFILE: 41,
	EBUSY: 10,
};

let mounts = 0;

/** Mount `files` in the engine under a new folder; returns the engine path of that folder. `key` names the backend in nodes. */
export function mountEngineFiles(FS: EmscriptenFS, files: EngineFiles, key: string, counters: EngineIoCounters): string {
	const guard =
		<A extends unknown[], R>(fn: (...args: A) => R) =>
		(...args: A): R => {
			try {
				return fn(...args);
			} catch (error) {
				if (error instanceof FS.ErrnoError) throw error;
				throw new FS.ErrnoError(ERRNO[(error as { code?: string } | undefined)?.code ?? ""] ?? ERRNO.EIO);
			}
		};
	const fail = (code: string) => () => {
		throw new FS.ErrnoError(ERRNO[code]);
	};

	const make = (parent: FsNode | null, name: string, isDirectory: boolean): FsNode => {
		const node = FS.createNode(parent, name, isDirectory ? S_IFDIR | 0o755 : S_IFREG | 0o644, 0);
		node.file = parent ? name : "";
		node.backend = key;
		node.node_ops = isDirectory ? dirOps : fileOps;
		node.stream_ops = isDirectory ? dirStream : fileStream;
		// Never cache a name: another process creates and deletes the journal, so every lookup asks the backend.
		if (parent) FS.hashRemoveNode(node);
		return node;
	};

	const getattr = guard((node: FsNode) => {
		const st = files.stat(node.file);
		if (!st) throw new FS.ErrnoError(ERRNO.ENOENT);
		const time = new Date(st.mtimeMs);
		return {
			dev: 1,
			ino: st.ino,
			mode: node.mode,
			nlink: 1,
			uid: 0,
			gid: 0,
			rdev: 0,
			size: st.size,
			atime: time,
			mtime: time,
			ctime: time,
			blksize: 4096,
			blocks: Math.ceil(st.size / 4096),
		};
	});
	const setattr = guard((node: FsNode, attr: { size?: number }) => {
		if (attr.size !== undefined) files.truncate(node.file, attr.size);
	});
	const fileOps = { getattr, setattr };
	const dirOps = {
		getattr,
		setattr,
		lookup: guard((parent: FsNode, name: string) => {
			const st = files.stat(name);
			if (!st) throw new FS.ErrnoError(ERRNO.ENOENT);
			return make(parent, name, st.isDirectory);
		}),
		mknod: guard((parent: FsNode, name: string) => {
			files.create(name);
			return make(parent, name, false);
		}),
		unlink: guard((_parent: FsNode, name: string) => files.unlink(name)),
		rmdir: fail("EPERM"),
		rename: fail("EPERM"),
		readdir: fail("EPERM"),
		symlink: fail("EPERM"),
	};
	const fileStream = {
		open: guard((stream: Stream) => {
			const write = (stream.flags & O_ACCMODE) !== 0;
			// O_CREAT goes to the backend too: the journal may have been deleted by another process since it was looked up.
			stream.handle = files.open(stream.node.file, {
				write,
				create: write && (stream.flags & O_CREAT) !== 0,
				truncate: write && (stream.flags & O_TRUNC) !== 0,
			});
		}),
		close: guard((stream: Stream) => {
			if (stream.handle !== undefined) files.close(stream.handle);
			stream.handle = undefined;
		}),
		read: guard((stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number) => {
			const n = files.read(stream.handle!, buffer, offset, length, position);
			counters.reads++;
			counters.bytesRead += n;
			return n;
		}),
		write: guard((stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number) => {
			let done = 0;
			while (done < length) done += files.write(stream.handle!, buffer, offset + done, length - done, position + done);
			counters.writes++;
			return done;
		}),
		llseek: guard((stream: Stream, offset: number, whence: number) => {
			let position = offset;
			if (whence === 1) position += stream.position;
			else if (whence === 2) position += files.size(stream.handle!);
			if (position < 0) throw new FS.ErrnoError(ERRNO.EINVAL);
			return position;
		}),
		fsync: guard((stream: Stream) => {
			files.sync(stream.handle!);
			counters.fsyncs++;
			return 0;
		}),
	};
	const dirStream = {
		open: guard((stream: Stream) => {
			stream.handle = files.open("", { write: false, create: false, truncate: false });
		}),
		close: fileStream.close,
		fsync: guard((stream: Stream) => {
			files.sync(stream.handle!);
			return 0;
		}),
	};

	// The counter starts again when this module is loaded again in the same engine: skip names already taken.
	let mountpoint = `/files${++mounts}`;
	for (;;) {
		try {
			FS.mkdir(mountpoint);
			break;
		} catch {
			mountpoint = `/files${++mounts}`;
		}
	}
	FS.mount({ mount: () => make(null, "/", true) }, {}, mountpoint);
	return mountpoint;
}
