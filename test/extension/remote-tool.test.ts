/** The Pi and omp tool's `session_search` with LOOKBACK_REMOTE: the call its indexer process runs answers from every shard. */

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_CALLS } from "../../src/extension/tool-calls.js";
import type { LocalIndex } from "../../src/node/indexer-work.js";
import { tempDir } from "../helpers.js";
import { json, lookback, machine, session } from "../team-helpers.js";

const saved = process.env.LOOKBACK_REMOTE;
afterEach(() => {
	if (saved === undefined) delete process.env.LOOKBACK_REMOTE;
	else process.env.LOOKBACK_REMOTE = saved;
});

/** No local index is opened for a team's call. */
const noLocalIndex = {
	open: () => Promise.reject(new Error("the local index was opened")),
	fresh: () => Promise.reject(new Error("the local index was synced")),
	oversizedFiles: () => [],
	indexing: false,
} as LocalIndex;

describe("session_search over a team", () => {
	it("searches, reads and browses the shards, not this machine's index", async () => {
		const bucket = pathToFileURL(join(tempDir("bucket"), "team")).href;
		const ids: Record<string, string> = {};
		for (const name of ["laptop", "ci"]) {
			const m = machine(name);
			ids[name] = session(m, `axolotl ${name} retry`);
			json(await lookback(["publish", bucket, "--as", name, "--json", ...m.args]));
		}
		process.env.LOOKBACK_REMOTE = bucket;
		const run = (params: object) =>
			TOOL_CALLS.session_search(noLocalIndex, { params }) as Promise<{ text: string; details: { mode: string } }>;
		const found = JSON.parse((await run({ query: "axolotl retry" })).text);
		expect(found.results.map((r: { shard: string }) => r.shard).sort()).toEqual(["ci", "laptop"]);
		const read = JSON.parse((await run({ sessionId: ids.ci })).text);
		expect(read.shard).toBe("ci");
		const browse = await run({});
		expect(browse.details.mode).toBe("browse");
		expect(JSON.parse(browse.text).sessions).toHaveLength(2);
		await expect(run({ action: "keyword", query: "x" })).rejects.toThrow(/not offered over a team/);
	});
});
