/** A small, dependency-free fingerprint of bytes (FNV-1a, 2 x 32 bit) for detecting rewritten file heads. */

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
