/**
 * Another program's SQLite database in WAL mode (OpenCode's), read as it stands at its last commit without
 * touching it: the pages of the last committed frames of `<db>-wal` (each frame checked by its salts and its
 * running checksum, up to the last commit frame), the rest from the main file. SQLite's own readers would need
 * `<db>-shm` and its locks; this reads both files only, never creates, writes or locks anything beside them,
 * and tells afterwards whether a checkpoint or a restart of the WAL may have changed what was read meanwhile
 * (then the caller reads again). The page size, the database's length and the frames are found once per
 * snapshot; pages are read on demand, so a database of any size is never loaded whole.
 */

import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;

/** Why a file is not a database this can read. */
class NotADatabase extends Error {}

/** Where the WAL's scan stopped: kept so that the next snapshot of the same WAL checks only frames added since. */
interface WalScan {
	salt1: number;
	salt2: number;
	/** Frames up to and including the last commit frame. */
	frames: number;
	/** The running checksum after the last commit frame. */
	sum1: number;
	sum2: number;
	/** Page number → file offset of its newest committed frame's page. */
	pages: Map<number, number>;
	/** The database's length in pages after the last commit. */
	dbPages: number;
}

function readExactly(fd: number, into: Uint8Array, position: number): boolean {
	let got = 0;
	while (got < into.length) {
		const n = readSync(fd, into, got, into.length - got, position + got);
		if (n === 0) return false;
		got += n;
	}
	return true;
}

/** SQLite's WAL checksum over `bytes` (a multiple of 8), continuing (s1, s2); words big-endian or little-endian by the WAL's magic. */
function checksum(bytes: Uint8Array, bigEndian: boolean, s1: number, s2: number): [number, number] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let a = s1;
	let b = s2;
	for (let i = 0; i < bytes.length; i += 8) {
		a = (a + view.getUint32(i, !bigEndian) + b) >>> 0;
		b = (b + view.getUint32(i + 4, !bigEndian) + a) >>> 0;
	}
	return [a, b];
}

function pageSizeOf(header: Uint8Array): number {
	const raw = (header[16] << 8) | header[17];
	return raw === 1 ? 65536 : raw;
}

/**
 * The committed frames of a WAL, continuing `previous` when the WAL is the same one it scanned (same salts and
 * checkpoint sequence: committed frames are never rewritten until the WAL restarts with new salts).
 */
function scanWal(fd: number, pageSize: number, previous: WalScan | undefined): WalScan | undefined {
	const header = new Uint8Array(WAL_HEADER);
	if (!readExactly(fd, header, 0)) return undefined;
	const view = new DataView(header.buffer);
	const magic = view.getUint32(0);
	if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return undefined;
	const bigEndian = magic === WAL_MAGIC_BE;
	if (view.getUint32(8) !== pageSize) return undefined;
	const [h1, h2] = checksum(header.subarray(0, 24), bigEndian, 0, 0);
	if (h1 !== view.getUint32(24) || h2 !== view.getUint32(28)) return undefined;
	const salt1 = view.getUint32(16);
	const salt2 = view.getUint32(20);
	const same = previous && previous.salt1 === salt1 && previous.salt2 === salt2;
	const scan: WalScan = same
		? { ...previous, pages: new Map(previous.pages) }
		: { salt1, salt2, frames: 0, sum1: h1, sum2: h2, pages: new Map(), dbPages: 0 };
	const size = fstatSync(fd).size;
	const frameBytes = FRAME_HEADER + pageSize;
	const frame = new Uint8Array(frameBytes);
	const fv = new DataView(frame.buffer);
	const pending = new Map<number, number>();
	let s1 = scan.sum1;
	let s2 = scan.sum2;
	for (let i = scan.frames; WAL_HEADER + (i + 1) * frameBytes <= size; i++) {
		const at = WAL_HEADER + i * frameBytes;
		if (!readExactly(fd, frame, at)) break;
		if (fv.getUint32(8) !== salt1 || fv.getUint32(12) !== salt2) break;
		[s1, s2] = checksum(frame.subarray(0, 8), bigEndian, s1, s2);
		[s1, s2] = checksum(frame.subarray(FRAME_HEADER), bigEndian, s1, s2);
		if (s1 !== fv.getUint32(16) || s2 !== fv.getUint32(20)) break;
		const page = fv.getUint32(0);
		if (page === 0) break;
		pending.set(page, at + FRAME_HEADER);
		const commit = fv.getUint32(4);
		if (commit !== 0) {
			for (const [p, offset] of pending) scan.pages.set(p, offset);
			pending.clear();
			scan.frames = i + 1;
			scan.sum1 = s1;
			scan.sum2 = s2;
			scan.dbPages = commit;
		}
	}
	return scan.frames > 0 ? scan : undefined;
}

interface FileStamp {
	ino: number;
	size: number;
	mtimeMs: number;
}

function stampOf(path: string): FileStamp | undefined {
	const st = statSync(path, { throwIfNoEntry: false });
	return st ? { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs } : undefined;
}

/**
 * One snapshot of a database: `read` answers the engine's reads of the file as SQLite would see it in rollback
 * mode (its header's WAL bytes shown as 1), `stillValid` says afterwards whether the reads can be trusted.
 */
export class WalSnapshot {
	readonly pageSize: number;
	/** The database's length in bytes at this snapshot. */
	readonly size: number;
	/** Pages read from the main file since `startReads`: a checkpoint may overwrite those, never the WAL's. */
	private fromMain = new Set<number>();

	private constructor(
		readonly path: string,
		private readonly main: number,
		private readonly wal: number | undefined,
		private readonly scan: WalScan | undefined,
		private readonly mainStamp: FileStamp,
		pageSize: number,
		mainSize: number,
	) {
		this.pageSize = pageSize;
		this.size = scan ? scan.dbPages * pageSize : Math.floor(mainSize / pageSize) * pageSize;
	}

	/** Take a snapshot of the database at `path` (and its `-wal`, when there is one), continuing `previous`'s scan of the same WAL. */
	static take(path: string, previous?: WalSnapshot): WalSnapshot {
		const main = openSync(path, "r");
		let wal: number | undefined;
		try {
			const header = new Uint8Array(100);
			const st = fstatSync(main);
			if (!readExactly(main, header, 0) || new TextDecoder().decode(header.subarray(0, 15)) !== "SQLite format 3")
				throw new NotADatabase(`${path} is not a SQLite database`);
			const pageSize = pageSizeOf(header);
			if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new NotADatabase(`${path}: page size ${pageSize}`);
			try {
				wal = openSync(`${path}-wal`, "r");
			} catch {
				wal = undefined;
			}
			const scan = wal === undefined ? undefined : scanWal(wal, pageSize, previous?.scan);
			return new WalSnapshot(path, main, wal, scan, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs }, pageSize, st.size);
		} catch (error) {
			closeSync(main);
			if (wal !== undefined) closeSync(wal);
			throw error;
		}
	}

	/**
	 * Whether `other` holds the same last commit: the same WAL (salts) with the same committed frames, or, with no
	 * frames in a WAL, the same main file untouched. A checkpoint moves frames into the main file but changes no content.
	 */
	sameCommit(other: WalSnapshot): boolean {
		const [a, b] = [this.scan, other.scan];
		if (a || b) return !!a && !!b && a.salt1 === b.salt1 && a.salt2 === b.salt2 && a.frames === b.frames;
		const [m, n] = [this.mainStamp, other.mainStamp];
		return m.ino === n.ino && m.size === n.size && m.mtimeMs === n.mtimeMs;
	}

	close(): void {
		closeSync(this.main);
		if (this.wal !== undefined) closeSync(this.wal);
	}

	/** Start counting the pages read from the main file (what `stillValid` checks). */
	startReads(): void {
		this.fromMain.clear();
	}

	/** Bytes [position, position + length) of the database as of this snapshot, into `into` at `offset`; returns the count. */
	read(into: Uint8Array, offset: number, length: number, position: number): number {
		const end = Math.min(position + length, this.size);
		let done = 0;
		for (let at = position; at < end; ) {
			const page = Math.floor(at / this.pageSize) + 1;
			const within = at - (page - 1) * this.pageSize;
			const n = Math.min(this.pageSize - within, end - at);
			const target = into.subarray(offset + done, offset + done + n);
			const inWal = this.scan?.pages.get(page);
			if (inWal !== undefined && this.wal !== undefined) readExactly(this.wal, target, inWal + within);
			else {
				this.fromMain.add(page);
				if (!readExactly(this.main, target, at)) target.fill(0);
			}
			if (page === 1) this.patchHeader(target, within);
			done += n;
			at += n;
		}
		return done;
	}

	/**
	 * Page 1 as a rollback-mode database with this snapshot's length: the file format bytes (18, 19) say 1, so
	 * SQLite never looks for `-wal` or `-shm`; the in-header size (28) is the snapshot's, valid for its change counter (24 → 92).
	 */
	private patchHeader(bytes: Uint8Array, from: number): void {
		const set = (offset: number, value: number) => {
			if (offset >= from && offset < from + bytes.length) bytes[offset - from] = value;
		};
		set(18, 1);
		set(19, 1);
		const pages = this.size / this.pageSize;
		for (let i = 0; i < 4; i++) set(28 + i, (pages >>> (8 * (3 - i))) & 0xff);
		if (from <= 24 && from + bytes.length >= 28) for (let i = 0; i < 4; i++) set(92 + i, bytes[24 + i - from]);
	}

	/**
	 * Whether what was read since `startReads` is this snapshot's: the main file is the same file, the WAL was not
	 * restarted (same salts, or still none), and no frame written since names a page that was read from the main
	 * file (a checkpoint may have copied that frame over it). Otherwise the caller takes a new snapshot and reads again.
	 */
	stillValid(): boolean {
		const now = stampOf(this.path);
		if (!now || now.ino !== this.mainStamp.ino) return false;
		// With no WAL the main file is the database: any write to it may have changed a page read.
		if (this.wal === undefined && (now.size !== this.mainStamp.size || now.mtimeMs !== this.mainStamp.mtimeMs)) return false;
		let fd: number;
		try {
			fd = openSync(`${this.path}-wal`, "r");
		} catch {
			// No WAL now: gone since (its frames were checkpointed into the main file), or there was none.
			return this.scan === undefined && this.wal === undefined;
		}
		try {
			const header = new Uint8Array(WAL_HEADER);
			const size = fstatSync(fd).size;
			if (size < WAL_HEADER || !readExactly(fd, header, 0)) return this.scan === undefined;
			const view = new DataView(header.buffer);
			const salt1 = view.getUint32(16);
			const salt2 = view.getUint32(20);
			if (this.scan && (salt1 !== this.scan.salt1 || salt2 !== this.scan.salt2)) return false;
			const frameBytes = FRAME_HEADER + this.pageSize;
			const frame = new Uint8Array(FRAME_HEADER);
			const fv = new DataView(frame.buffer);
			for (let i = this.scan?.frames ?? 0; WAL_HEADER + (i + 1) * frameBytes <= size; i++) {
				if (!readExactly(fd, frame, WAL_HEADER + i * frameBytes)) break;
				if (fv.getUint32(8) !== salt1 || fv.getUint32(12) !== salt2) break;
				if (this.fromMain.has(fv.getUint32(0))) return false;
			}
			return true;
		} finally {
			closeSync(fd);
		}
	}
}
