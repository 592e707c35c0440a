/**
 * Long bodies are raw DEFLATE: a Node process deflates and inflates them with Node's zlib (src/node/open.ts), the
 * browser's viewer with fflate (the core's default). Each reads what the other wrote, and a damaged body reads as
 * empty.
 */
import { deflateSync, inflateSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { decodeBody, encodeBody, useDeflater } from "../../src/core/store/body-codec.js";
import { openNodeIndex } from "../../src/node/open.js";
import { tempDir } from "../helpers.js";

const FFLATE = { deflate: (d: Uint8Array) => deflateSync(d, { level: 6 }), inflate: (d: Uint8Array) => inflateSync(d) };
const text = `${"the migration of the ledger journal timed out on staging; ".repeat(40)}迁移超时 ✓ ${"x".repeat(300)}`;

afterAll(() => useDeflater(FFLATE));

describe("the bodies' raw DEFLATE", () => {
	it("reads across Node's zlib and fflate, both ways, and a damaged body as empty", async () => {
		useDeflater(FFLATE);
		const byFflate = encodeBody(text);
		expect(byFflate).toBeInstanceOf(Uint8Array);
		// Opening an index in Node puts Node's zlib in place.
		const opened = await openNodeIndex({ indexPath: `${tempDir("codec")}/index.db`, onlySessionsDirs: true, sessionsDirs: [], env: {} });
		opened.index.close();
		const byZlib = encodeBody(text);
		expect(Buffer.from(byZlib as Uint8Array).equals(Buffer.from(byFflate as Uint8Array))).toBe(false);
		expect(decodeBody(byFflate)).toBe(text);
		expect(decodeBody(byZlib)).toBe(text);
		useDeflater(FFLATE);
		expect(decodeBody(byZlib)).toBe(text);
		expect(decodeBody(new Uint8Array([1, 2, 3, 250, 251]))).toBe("");
		expect(decodeBody("short")).toBe("short");
	});
});
