/**
 * A file's bytes as runs of complete lines, read a bounded chunk at a time (and inflated when zstd-compressed),
 * so that a file of any size is parsed in bounded memory: a line longer than the cap is skipped, never held.
 */

import { Decompress } from "fzstd";

/** Complete lines of a file, starting at byte `base` (of the inflated bytes, for a compressed file). */
export interface LineRun {
	kind: "lines";
	bytes: Uint8Array;
	base: number;
	/** The file's last run: it may end in a line without a newline (complete JSON, or half-written). */
	final: boolean;
}

/** A line skipped for its length: where it starts, and its first bytes (a format may still tell what it was). */
export interface LongLine {
	kind: "long";
	start: number;
	/** Just past its newline. */
	end: number;
	head: Uint8Array;
}

export interface LineLimits {
	chunkBytes: number;
	maxLineBytes: number;
	/** Inflated bytes read at most (compressed files): past it the rest is left, `truncated` says so. */
	maxBytes: number;
}

/** What the reader saw besides the runs it yielded. */
export interface ReadTally {
	/** Bytes read from the source (compressed bytes for a compressed file). */
	bytesRead: number;
	/** Inflated bytes went past `maxBytes`: the rest was not read. */
	truncated: boolean;
	/** Where a long line still being skipped at the end began (it is not consumed). */
	openLongLine?: number;
}

export function isZstd(path: string): boolean {
	return path.endsWith(".zst");
}

const NEWLINE = 0x0a;
/** Bytes of a skipped line's head handed to its format. */
const LONG_HEAD_BYTES = 64 * 1024;
/** Compressed bytes pushed to the inflater at once: 1 KiB of zstd inflates to at most about 32 MiB (a 4 KiB slice cost 100 MB more RSS on a 4,700:1 file). */
const ZSTD_SLICE_BYTES = 1024;

function concatAll(parts: Uint8Array[], length: number): Uint8Array {
	const out = new Uint8Array(length);
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	if (a.length === 0) return b;
	if (b.length === 0) return a;
	const out = new Uint8Array(a.length + b.length);
	out.set(a, 0);
	out.set(b, a.length);
	return out;
}

/** The file's bytes in pieces (inflated for zstd), from `start` (plain files only) to `end` (its size). */
async function* pieces(
	read: (start: number, end: number) => Promise<Uint8Array>,
	zstd: boolean,
	start: number,
	end: number,
	limits: LineLimits,
	tally: ReadTally,
): AsyncGenerator<Uint8Array> {
	if (!zstd) {
		for (let at = start; at < end; ) {
			const bytes = await read(at, Math.min(end, at + limits.chunkBytes));
			tally.bytesRead += bytes.length;
			if (bytes.length === 0) return;
			at += bytes.length;
			yield bytes;
		}
		return;
	}
	let out: Uint8Array[] = [];
	let held = 0;
	let inflated = 0;
	const stream = new Decompress((data) => {
		out.push(data);
		held += data.length;
		inflated += data.length;
	});
	/** The inflated bytes held so far as one piece, cut at the cap. */
	const take = (): Uint8Array => {
		const joined = out.length === 1 ? out[0] : concatAll(out, held);
		out = [];
		held = 0;
		const room = limits.maxBytes - (inflated - joined.length);
		return joined.length > room ? joined.subarray(0, Math.max(0, room)) : joined;
	};
	for (let at = 0; at < end; ) {
		const bytes = await read(at, Math.min(end, at + limits.chunkBytes));
		tally.bytesRead += bytes.length;
		if (bytes.length === 0) break;
		at += bytes.length;
		// Pushed in small slices, and handed on a chunk at a time: a highly compressed slice (a zstd bomb) cannot
		// inflate far past a chunk, nor the whole file past the cap.
		for (let s = 0; s < bytes.length; s += ZSTD_SLICE_BYTES) {
			stream.push(bytes.subarray(s, Math.min(bytes.length, s + ZSTD_SLICE_BYTES)), at >= end && s + ZSTD_SLICE_BYTES >= bytes.length);
			if (inflated > limits.maxBytes) {
				yield take();
				tally.truncated = true;
				return;
			}
			if (held >= limits.chunkBytes) yield take();
		}
	}
	if (held > 0) yield take();
}

/**
 * Runs of complete lines of a file, each at most about `chunkBytes` plus one line. A line over `maxLineBytes`
 * is skipped (its head kept in `tally.longLines`); the last run is flagged `final`.
 */
export async function* lineRuns(
	read: (start: number, end: number) => Promise<Uint8Array>,
	path: string,
	start: number,
	end: number,
	limits: LineLimits,
	tally: ReadTally,
): AsyncGenerator<LineRun | LongLine> {
	let pending: Uint8Array = new Uint8Array(0);
	/** Offset of `pending[0]` in the file. */
	let pendingAt = start;
	/** Inside a long line being skipped: where it began and its head (yielded once its end is seen). */
	let skipping: LongLine | undefined;
	let at = start;
	for await (const piece of pieces(read, isZstd(path), start, end, limits, tally)) {
		let rest = piece;
		let restAt = at;
		at += piece.length;
		if (skipping !== undefined) {
			const nl = rest.indexOf(NEWLINE);
			if (nl < 0) continue;
			yield { ...skipping, end: restAt + nl + 1 };
			skipping = undefined;
			rest = rest.subarray(nl + 1);
			restAt += nl + 1;
			pending = new Uint8Array(0);
			pendingAt = restAt;
		}
		const joined = concat(pending, rest);
		const joinedAt = pending.length > 0 ? pendingAt : restAt;
		const lastNewline = joined.lastIndexOf(NEWLINE);
		if (lastNewline >= 0) {
			const run = joined.subarray(0, lastNewline + 1);
			pending = joined.slice(lastNewline + 1);
			pendingAt = joinedAt + lastNewline + 1;
			yield* cutLongLines(run, joinedAt, limits);
		} else {
			pending = joined;
			pendingAt = joinedAt;
		}
		if (pending.length > limits.maxLineBytes) {
			skipping = { kind: "long", start: pendingAt, end: -1, head: pending.slice(0, LONG_HEAD_BYTES) };
			pending = new Uint8Array(0);
		}
	}
	if (skipping !== undefined) {
		// A long line still open at the end (half-written, or cut by the cap): not consumed, it is looked at again.
		tally.openLongLine = skipping.start;
		yield { kind: "lines", bytes: new Uint8Array(0), base: skipping.start, final: true };
		return;
	}
	yield { kind: "lines", bytes: pending, base: pendingAt, final: true };
}

/** A run of complete lines, without those over the cap (which came whole within one piece). */
function* cutLongLines(run: Uint8Array, base: number, limits: LineLimits): Generator<LineRun | LongLine> {
	if (run.length <= limits.maxLineBytes) {
		yield { kind: "lines", bytes: run, base, final: false };
		return;
	}
	let from = 0;
	for (let lineStart = 0; lineStart < run.length; ) {
		const nl = run.indexOf(NEWLINE, lineStart);
		const lineEnd = nl < 0 ? run.length : nl + 1;
		if (lineEnd - lineStart > limits.maxLineBytes) {
			if (lineStart > from) yield { kind: "lines", bytes: run.subarray(from, lineStart), base: base + from, final: false };
			yield { kind: "long", start: base + lineStart, end: base + lineEnd, head: run.slice(lineStart, lineStart + LONG_HEAD_BYTES) };
			from = lineEnd;
		}
		lineStart = lineEnd;
	}
	if (from < run.length) yield { kind: "lines", bytes: run.subarray(from), base: base + from, final: false };
}
