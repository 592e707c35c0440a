/**
 * The archive's data files: a copy written a chunk at a time (gzip members, or the bytes as they are), named by
 * its path and generation, and read back by byte range, a member inflated at a time.
 */

import { closeSync, constants, ftruncateSync, openSync, readSync, write } from "node:fs";
import { open } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzipSync, gzip } from "node:zlib";
import { DEFAULTS, fingerprint } from "../core/index.js";
import type { ArchiveRecord } from "./archive-manifest.js";
import { PRIVATE_FILE } from "./private-files.js";

const gzipAsync = promisify(gzip);
const writeAsync = promisify(write);

/** Bytes [start, end) of a file's source, as the sync reads them. */
export type Read = (start: number, end: number) => Promise<Uint8Array>;

/** What a written copy comes to, for its manifest line. */
export interface Written {
	fields: Pick<ArchiveRecord, "size" | "dataSize" | "members" | "head" | "tail">;
	bytesRead: number;
	bytesWritten: number;
}

/**
 * The data file of a path's next copy: `<xx>/<hash of the path>-<generation>.<codec>`, one generation past its
 * copy now. A file already there under that name is what a killed writer left (no manifest line names it):
 * it is written over, so an unfinished copy never outlives the next one.
 */
export function copyName(path: string, old: ArchiveRecord | undefined, codec: ArchiveRecord["codec"]): string {
	// 64 bits of the path: two paths of one archive sharing them is a chance of about n² / 2^65.
	const hash = fingerprint(new TextEncoder().encode(path));
	const generation = Number(/-(\d+)\.\w+$/.exec(old?.data ?? "")?.[1] ?? 0) + 1;
	return `${hash.slice(0, 2)}/${hash}-${generation}.${codec}`;
}

/**
 * Write the source's bytes [from.size, size) to a data file after its first `from.dataSize` bytes (cutting off
 * whatever an unfinished write left there), a chunk at a time. Compressing and writing run on libuv's threads:
 * the sync's own thread goes on parsing meanwhile. The caller syncs the file before naming it in the manifest.
 */
export async function writeCopy(
	file: string,
	from: Pick<ArchiveRecord, "codec" | "dataSize" | "members" | "size" | "head">,
	size: number,
	read: Read,
): Promise<Written> {
	const fd = openSync(
		file,
		from.dataSize > 0 ? constants.O_RDWR : constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
		PRIVATE_FILE,
	);
	let position = from.dataSize;
	let source = from.size;
	let head = from.head;
	let bytesRead = 0;
	const members = [...from.members];
	try {
		if (from.dataSize > 0) ftruncateSync(fd, from.dataSize);
		while (source < size) {
			const bytes = await read(source, Math.min(size, source + DEFAULTS.readChunkBytes));
			if (bytes.length === 0) break; // the file shrank while being read: what was read is kept
			bytesRead += bytes.length;
			if (source === 0) head = fingerprint(bytes.subarray(0, DEFAULTS.headFingerprintBytes));
			const out = from.codec === "gz" ? await gzipAsync(bytes, { level: DEFAULTS.archiveGzipLevel }) : bytes;
			for (let at = 0; at < out.length; ) at += (await writeAsync(fd, out, at, out.length - at, position + at)).bytesWritten;
			position += out.length;
			source += bytes.length;
			if (from.codec === "gz") members.push([source, position]);
		}
	} finally {
		closeSync(fd);
	}
	const tailBytes = await read(Math.max(0, source - DEFAULTS.headFingerprintBytes), source);
	bytesRead += tailBytes.length;
	return {
		fields: { size: source, dataSize: position, members, head, tail: fingerprint(tailBytes) },
		bytesRead,
		bytesWritten: position - from.dataSize,
	};
}

/** A file's data or a folder's new entries made durable, off the main thread. */
export async function syncAsync(path: string): Promise<void> {
	let handle: Awaited<ReturnType<typeof open>>;
	try {
		handle = await open(path, "r");
	} catch {
		return; // a folder a platform cannot open for syncing: its entries are flushed by the OS in time
	}
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/** Reads copies back by byte range, keeping the last two members it inflated (reads walk a file in order). */
export class CopyReader {
	private inflated = new Map<string, Uint8Array>();

	read(file: string, record: Pick<ArchiveRecord, "codec" | "members">, start: number, end: number): Uint8Array {
		const out = new Uint8Array(Math.max(0, end - start));
		if (out.length === 0) return out;
		const fd = openSync(file, "r");
		try {
			if (record.codec === "raw") return out.subarray(0, readSync(fd, out, 0, out.length, start));
			let sourceStart = 0;
			let dataStart = 0;
			for (const [sourceEnd, dataEnd] of record.members) {
				if (sourceEnd > start && sourceStart < end) {
					const member = this.member(fd, file, dataStart, dataEnd);
					const from = Math.max(start, sourceStart);
					out.set(member.subarray(from - sourceStart, Math.min(end, sourceEnd) - sourceStart), from - start);
				}
				if (sourceEnd >= end) break;
				sourceStart = sourceEnd;
				dataStart = dataEnd;
			}
			return out;
		} finally {
			closeSync(fd);
		}
	}

	private member(fd: number, file: string, start: number, end: number): Uint8Array {
		const key = `${file}@${start}`;
		const cached = this.inflated.get(key);
		if (cached) return cached;
		const packed = new Uint8Array(end - start);
		readSync(fd, packed, 0, packed.length, start);
		const bytes = gunzipSync(packed);
		if (this.inflated.size >= 2) this.inflated.delete(this.inflated.keys().next().value as string);
		this.inflated.set(key, bytes);
		return bytes;
	}
}
