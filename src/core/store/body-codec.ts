/**
 * Stored text: short bodies as TEXT, longer ones deflated into a BLOB (about half the bytes on agent
 * transcripts), so the index carries more history in the same memory. Every reader goes through decodeBody.
 */

import { deflateSync, inflateSync } from "fflate";
import { DEFAULTS } from "../defaults.js";

/** Raw DEFLATE both ways: what encodeBody and decodeBody use. */
export interface Deflater {
	deflate(data: Uint8Array): Uint8Array;
	inflate(data: Uint8Array): Uint8Array;
}

/** fflate's, in JavaScript, which any host runs (the browser's viewer reads with it). */
let deflater: Deflater = { deflate: (data) => deflateSync(data, { level: 6 }), inflate: (data) => inflateSync(data) };

/**
 * A host's own raw DEFLATE (Node's zlib, src/node/open.ts): the same format, so either reads what the other
 * wrote, and far less work for a process that has not optimised fflate yet — a one-shot search runs without the
 * optimising compiler, and a cold search in an indexer process spent 24 ms of its 68 inflating a few hundred bodies.
 */
export function useDeflater(host: Deflater): void {
	deflater = host;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export function encodeBody(text: string): string | Uint8Array {
	if (text.length < DEFAULTS.compressFromChars) return text;
	const packed = deflater.deflate(utf8Encoder.encode(text));
	return packed.length < text.length ? packed : text;
}

export function decodeBody(stored: unknown): string {
	if (typeof stored === "string") return stored;
	if (stored instanceof Uint8Array) {
		try {
			return utf8Decoder.decode(deflater.inflate(stored));
		} catch {
			return ""; // a damaged row reads as empty rather than failing a search
		}
	}
	return "";
}
