/**
 * A pass-through Emscripten filesystem: a folder of the host mounted inside the engine, every read and
 * write going to the real file at its position (`fs.readSync`/`fs.writeSync`), so SQLite opens the index
 * in place and reads only the pages it needs. Its journal is a real file beside it.
 */

import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** The part of Emscripten's FS object this mount uses (exported by lookback's own engine build). */
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
	host: string;
	node_ops: object;
	stream_ops: object;
}

interface Stream {
	node: FsNode;
	flags: number;
	position: number;
	hostFd?: number;
}

/** Counted I/O, for tests that assert how little was read. */
export interface HostIoCounters {
	reads: number;
	bytesRead: number;
	writes: number;
	fsyncs: number;
}

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const O_ACCMODE = 3;
const O_CREAT = 0o100;
const O_TRUNC = 0o1000;
const ERRNO: Record<string, number> = { ENOENT: 44, EEXIST: 20, EACCES: 2, EPERM: 63, EBADF: 8, EINVAL: 28, EISDIR: 31, ENOTDIR: 54, ENOSPC: 51, EROFS: 69, EDQUOT: 19, EIO: 29, EMFILE: 33, ENFILE: 41 };

let mounts = 0;

/** Mount `hostDir` in the engine; returns the engine path of the folder. */
export function mountHostDir(FS: EmscriptenFS, hostDir: string, counters: HostIoCounters): string {
	// An exception that is not an ErrnoError would unwind through wasm and abort the whole engine.
	const guard =
		<A extends unknown[], R>(fn: (...args: A) => R) =>
		(...args: A): R => {
			try {
				return fn(...args);
			} catch (error) {
				if (error instanceof FS.ErrnoError) throw error;
				throw new FS.ErrnoError(ERRNO[(error as NodeJS.ErrnoException)?.code ?? ""] ?? ERRNO.EIO);
			}
		};

	const make = (parent: FsNode | null, name: string, mode: number, host: string): FsNode => {
		const node = FS.createNode(parent, name, mode, 0);
		node.host = host;
		const isDir = (mode & 0o170000) === S_IFDIR;
		node.node_ops = isDir ? dirOps : fileOps;
		node.stream_ops = isDir ? dirStream : fileStream;
		// Never cache a name: another process creates and deletes the journal, so every lookup asks the host.
		if (parent) FS.hashRemoveNode(node);
		return node;
	};

	const getattr = guard((node: FsNode) => {
		const st = statSync(node.host);
		return {
			dev: 1,
			ino: st.ino,
			mode: node.mode,
			nlink: st.nlink,
			uid: 0,
			gid: 0,
			rdev: 0,
			size: st.size,
			atime: st.atime,
			mtime: st.mtime,
			ctime: st.ctime,
			blksize: 4096,
			blocks: Math.ceil(st.size / 4096),
		};
	});
	const setattr = guard((node: FsNode, attr: { size?: number }) => {
		if (attr.size === undefined) return;
		const fd = openSync(node.host, "r+");
		try {
			ftruncateSync(fd, attr.size);
		} finally {
			closeSync(fd);
		}
	});
	const fileOps = { getattr, setattr };
	const dirOps = {
		getattr,
		setattr,
		lookup: guard((parent: FsNode, name: string) => {
			const host = join(parent.host, name);
			const st = statSync(host, { throwIfNoEntry: false });
			if (!st) throw new FS.ErrnoError(ERRNO.ENOENT);
			return make(parent, name, st.isDirectory() ? S_IFDIR | 0o755 : S_IFREG | 0o644, host);
		}),
		mknod: guard((parent: FsNode, name: string, mode: number) => {
			const host = join(parent.host, name);
			closeSync(openSync(host, constants.O_CREAT | constants.O_WRONLY, 0o644));
			return make(parent, name, mode, host);
		}),
		unlink: guard((parent: FsNode, name: string) => unlinkSync(join(parent.host, name))),
		rmdir: () => {
			throw new FS.ErrnoError(ERRNO.EPERM);
		},
		rename: () => {
			throw new FS.ErrnoError(ERRNO.EPERM);
		},
		readdir: () => {
			throw new FS.ErrnoError(ERRNO.EPERM);
		},
		symlink: () => {
			throw new FS.ErrnoError(ERRNO.EPERM);
		},
	};
	const fileStream = {
		open: guard((stream: Stream) => {
			const write = (stream.flags & O_ACCMODE) !== 0;
			// O_CREAT goes to the host too: the journal may have been deleted by another process since it was looked up.
			let flags = write ? constants.O_RDWR : constants.O_RDONLY;
			if (write && stream.flags & O_CREAT) flags |= constants.O_CREAT;
			if (write && stream.flags & O_TRUNC) flags |= constants.O_TRUNC;
			stream.hostFd = openSync(stream.node.host, flags, 0o644);
		}),
		close: guard((stream: Stream) => {
			if (stream.hostFd !== undefined) closeSync(stream.hostFd);
			stream.hostFd = undefined;
		}),
		read: guard((stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number) => {
			const n = readSync(stream.hostFd!, buffer, offset, length, position);
			counters.reads++;
			counters.bytesRead += n;
			return n;
		}),
		write: guard((stream: Stream, buffer: Uint8Array, offset: number, length: number, position: number) => {
			let done = 0;
			while (done < length) done += writeSync(stream.hostFd!, buffer, offset + done, length - done, position + done);
			counters.writes++;
			return done;
		}),
		llseek: guard((stream: Stream, offset: number, whence: number) => {
			let position = offset;
			if (whence === 1) position += stream.position;
			else if (whence === 2) position += fstatSync(stream.hostFd!).size;
			if (position < 0) throw new FS.ErrnoError(ERRNO.EINVAL);
			return position;
		}),
		fsync: guard((stream: Stream) => {
			fsyncSync(stream.hostFd!);
			counters.fsyncs++;
			return 0;
		}),
	};
	const dirStream = {
		open: guard((stream: Stream) => {
			stream.hostFd = openSync(stream.node.host, "r");
		}),
		close: fileStream.close,
		fsync: guard((stream: Stream) => {
			try {
				fsyncSync(stream.hostFd!);
			} catch {
				// not every platform can fsync a folder
			}
			return 0;
		}),
	};

	const mountpoint = `/host${++mounts}`;
	FS.mkdir(mountpoint);
	FS.mount({ mount: () => make(null, "/", S_IFDIR | 0o755, hostDir) }, {}, mountpoint);
	return mountpoint;
}
