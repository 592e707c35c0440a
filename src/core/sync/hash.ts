/** Small, dependency-free hashes: of bytes, for detecting rewritten file heads; of keys, for finding the same message in two files. */

/** A fingerprint of bytes (FNV-1a, 2 x 32 bit). */
export function fingerprint(bytes: Uint8Array): string {
	let h1 = 0x811c9dc5;
	let h2 = 0x01000193 ^ bytes.length;
	for (let i = 0; i < bytes.length; i++) {
		const b = bytes[i];
		h1 = Math.imul(h1 ^ b, 0x01000193);
		h2 = Math.imul(h2 ^ b, 0x5bd1e995);
	}
	return (h1 >>> 0).toString(16).padStart(8, "0") + (h2 >>> 0).toString(16).padStart(8, "0");
}

/** A 53-bit hash of a key: an index of keys stays small, and two keys meet by chance about once in 10^15 pairs. */
export function keyHash(key: string): number {
	let h1 = 0x811c9dc5;
	let h2 = 0x01000193;
	for (let i = 0; i < key.length; i++) {
		const c = key.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 0x01000193);
		h2 = Math.imul(h2 ^ c, 0x5bd1e995);
	}
	return (h1 >>> 0) * 2 ** 21 + ((h2 >>> 0) >>> 11);
}
