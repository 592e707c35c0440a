/** What the end-to-end tests of both agents share: where things are, and a fake model for the test file. */

import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeModel, type FakeModel } from "./fake-model-server.mjs";

export const REPO = join(import.meta.dirname, "..");
/** The extension entry both agents load (no build step). */
export const EXTENSION = join(REPO, "src", "extension", "index.ts");

/** A fake model on 127.0.0.1 for the whole test file; read `.current` inside tests. */
export function useFakeModel(): { current: FakeModel } {
	const holder = {} as { current: FakeModel };
	beforeAll(async () => {
		holder.current = await startFakeModel();
	});
	afterAll(async () => {
		await holder.current?.close();
	});
	return holder;
}
