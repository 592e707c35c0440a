/**
 * Stored text: short bodies as TEXT, longer ones deflated into a BLOB (about half the bytes on agent
 * transcripts), so the index carries more history in the same memory. Every reader goes through decodeBody.
 */

import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";
import { DEFAULTS } from "../defaults.js";

export function encodeBody(text: string): string | Uint8Array {
	if (text.length < DEFAULTS.compressFromChars) return text;
	const packed = deflateSync(strToU8(text), { level: 6 });
	return packed.length < text.length ? packed : text;
}

export function decodeBody(stored: unknown): string {
	if (typeof stored === "string") return stored;
	if (stored instanceof Uint8Array) {
		try {
			return strFromU8(inflateSync(stored));
		} catch {
			return ""; // a damaged row reads as empty rather than failing a search
		}
	}
	return "";
}
