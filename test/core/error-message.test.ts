import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";

/** A session the real Pi 0.73.1 wrote when its provider answered 400 (test/extension/pi-error.test.ts makes one anew). */
const FOLDER = join(import.meta.dirname, "..", "fixtures", "pi-error");

describe("an error a turn ended in", () => {
	it("is searchable under the assistant's role, in the message the session shows", async () => {
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		await index.sync(fileSource([{ path: FOLDER, layout: "flat", agent: "pi" }]));
		const hit = index.search({ query: "third-party apps extra usage" }).results[0];
		expect(hit).toMatchObject({ role: "assistant", type: "assistant" });
		expect(hit.snippet).toContain("«extra» «usage»");
		const message = index.read(hit.sessionId).messages.find((m) => m.entryId === hit.entryId);
		expect(message?.text).toContain("[error] 400 Third-party apps now draw from your extra usage");
	});
});
