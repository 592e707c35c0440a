/** Lenient JSONL: complete lines only, a partial last line left for the next read, bad lines counted. */

const NEWLINE = 0x0a;

/** The lines of a chunk read from `offset`, and how many bytes of it are complete (safe to mark consumed). */
export interface LineChunk {
	lines: string[];
	/** Byte offset of each line in the chunk (a session file keeps each entry's byte range, to cut snippets from it later). */
	offsets: number[];
	/** Bytes from the start of the chunk up to and including the last complete line. */
	consumedBytes: number;
	/** Bytes of an unfinished last line left for the next sync. */
	pendingBytes: number;
}

const decoder = new TextDecoder("utf-8");

/**
 * Split bytes into lines. A last line without a newline is taken only when it is a complete JSON value
 * (a file not written by Pi may lack the final newline); a half-written line stays pending.
 */
export function splitLines(bytes: Uint8Array): LineChunk {
	const lastNewline = bytes.lastIndexOf(NEWLINE);
	const completeEnd = lastNewline + 1;
	const lines = completeEnd > 0 ? decoder.decode(bytes.subarray(0, completeEnd)).split("\n") : [];
	if (lines.length > 0) lines.pop(); // the empty string after the final newline
	const offsets: number[] = [];
	for (let at = 0; at < completeEnd; at = bytes.indexOf(NEWLINE, at) + 1) offsets.push(at);
	let consumedBytes = completeEnd;
	if (completeEnd < bytes.length) {
		const tail = decoder.decode(bytes.subarray(completeEnd));
		if (isCompleteJson(tail)) {
			lines.push(tail);
			offsets.push(completeEnd);
			consumedBytes = bytes.length;
		}
	}
	if (lines.length > 0 && lines[0].charCodeAt(0) === 0xfeff) lines[0] = lines[0].slice(1);
	return { lines, offsets, consumedBytes, pendingBytes: bytes.length - consumedBytes };
}

function isCompleteJson(text: string): boolean {
	const t = text.trim();
	if (!t.startsWith("{") || !t.endsWith("}")) return false;
	return parseJsonObject(t) !== undefined;
}

/** JSON.parse of one line into an object; undefined for anything else (malformed, array, too deep). */
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(line);
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}
