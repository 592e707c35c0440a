/**
 * The archive's manifest: one JSON line per change, the last line for a path winning (a line with `drop`
 * removes it). Only ever appended, under the archive's lock; a line cut short by a killed writer is ignored by
 * readers and cut off by the next writer; compaction writes every path's last line to a new file renamed over
 * the old one. Readers read what was added since their last look, or all of it when the file was replaced.
 */

import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, statSync, truncateSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { ArchivedFile } from "../core/index.js";
import { createExclusive, PRIVATE_FILE, tempBeside } from "./private-files.js";

/** One file's copy: what the archive holds of it and where. */
export interface ArchiveRecord extends ArchivedFile {
	/** Its data file, relative to the archive's `data/`. */
	data: string;
	/** "gz": gzip members of the source's bytes; "raw": the bytes as they are (a file that is compressed already). */
	codec: "gz" | "raw";
	/** Bytes of the data file that belong to the copy (anything after them is a write that never completed). */
	dataSize: number;
	/** For "gz": the end of each member, in the source's bytes and in the data file's. */
	members: [number, number][];
	/** Fingerprints of the first and the last `DEFAULTS.headFingerprintBytes` of the bytes held: a grown file must keep both. */
	head: string;
	tail: string;
	/** When this line was written (epoch ms). */
	at: number;
	/** The file's permission bits when it was kept (a file restored gets them back; private when not recorded). */
	mode?: number;
}

type Line = ArchiveRecord | { path: string; drop: true };

function isRecord(value: unknown): value is Line {
	return typeof value === "object" && value !== null && typeof (value as { path?: unknown }).path === "string";
}

const decoder = new TextDecoder();

/** The manifest as one process knows it. */
export class Manifest {
	readonly records = new Map<string, ArchiveRecord>();
	/** Where this process has read to, in which file (its inode), and how many lines that was. */
	private ino = -1;
	private offset = 0;
	lines = 0;

	constructor(readonly path: string) {}

	/** Read the lines added since the last read; everything again when the file was replaced or cut. */
	refresh(): void {
		const st = statSync(this.path, { throwIfNoEntry: false });
		if (!st) {
			if (this.ino !== -1) this.reset();
			return;
		}
		if (st.ino !== this.ino || st.size < this.offset) {
			this.reset();
			this.ino = st.ino;
		}
		if (st.size === this.offset) return;
		const fd = openSync(this.path, "r");
		try {
			const bytes = new Uint8Array(st.size - this.offset);
			const n = readSync(fd, bytes, 0, bytes.length, this.offset);
			const end = bytes.subarray(0, n).lastIndexOf(10);
			if (end < 0) return;
			for (const text of decoder.decode(bytes.subarray(0, end)).split("\n")) this.apply(text);
			this.offset += end + 1;
		} finally {
			closeSync(fd);
		}
	}

	private reset(): void {
		this.records.clear();
		this.ino = -1;
		this.offset = 0;
		this.lines = 0;
	}

	/** Forget what was read: the next refresh reads the whole file (after a batch that was not written). */
	reload(): void {
		this.reset();
		this.refresh();
	}

	private apply(text: string): void {
		if (text.trim() === "") return;
		let line: unknown;
		try {
			line = JSON.parse(text);
		} catch {
			return; // not a line this lookback wrote whole: skipped
		}
		if (!isRecord(line)) return;
		this.lines++;
		if ("drop" in line) this.records.delete(line.path);
		else this.records.set(line.path, line);
	}

	/** Cut off a line a killed writer left unfinished, so that the next line starts on a line of its own (writer only). */
	cutTornTail(): void {
		const st = statSync(this.path, { throwIfNoEntry: false });
		if (!st || st.size === 0) return;
		const fd = openSync(this.path, "r");
		let keep = st.size;
		try {
			const tail = new Uint8Array(Math.min(st.size, 1 << 20));
			let pos = st.size;
			// Back to the last newline, a window at a time.
			for (;;) {
				const from = Math.max(0, pos - tail.length);
				const n = readSync(fd, tail, 0, pos - from, from);
				const nl = tail.subarray(0, n).lastIndexOf(10);
				if (nl >= 0) {
					keep = from + nl + 1;
					break;
				}
				if (from === 0) {
					keep = 0;
					break;
				}
				pos = from;
			}
		} finally {
			closeSync(fd);
		}
		if (keep < st.size) truncateSync(this.path, keep);
	}

	/** Append lines and make them durable (writer only). */
	append(lines: Line[]): void {
		if (lines.length === 0) return;
		const text = Buffer.from(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const fd = openSync(this.path, "a", PRIVATE_FILE);
		try {
			writeSync(fd, text);
			fsyncSync(fd);
			const st = fstatSync(fd);
			if (st.ino === this.ino && st.size === this.offset + text.length) {
				this.offset = st.size;
				this.lines += lines.length;
			}
		} finally {
			closeSync(fd);
		}
		if (this.ino === -1) syncDir(dirname(this.path));
		this.refresh();
	}

	/** Whether the file holds many more lines than paths (a file grown line by line): worth compacting. */
	wantsCompaction(): boolean {
		return this.lines > 2 * this.records.size + 1000;
	}

	/** Write every path's last line to a new file, renamed over the manifest (writer only). */
	compact(): void {
		const temp = tempBeside(this.path);
		const fd = createExclusive(temp);
		try {
			const lines = [...this.records.values()].map((r) => JSON.stringify(r));
			writeSync(fd, lines.length > 0 ? `${lines.join("\n")}\n` : "");
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		renameSync(temp, this.path);
		syncDir(dirname(this.path));
		this.reload();
	}
}

/** Make a folder's entries durable (a new or renamed file in it). */
export function syncDir(dir: string): void {
	let fd: number | undefined;
	try {
		fd = openSync(dir, "r");
		fsyncSync(fd);
	} catch {
		// a platform that cannot open a folder for syncing: its entries are flushed by the OS in time
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}
