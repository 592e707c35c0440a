/** A long-lived host's index: read in the host, synced by its indexer process, which follows the lock protocol. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HostIndex } from "../../src/node/host-index.js";
import { copyFixtures, SAMPLE, tempDir } from "../helpers.js";

function host(sessions: string, indexPath: string, options = {}) {
	return new HostIndex({ sessionsDirs: [sessions], onlySessionsDirs: true, indexPath, env: { HOME: tempDir("home") } }, options);
}

describe("a host's index", () => {
	it("is synced by the indexer process and read in the host", async () => {
		const indexPath = join(tempDir("index"), "index.db");
		const h = host(copyFixtures(), indexPath);
		const { opened, state } = await h.fresh();
		expect(state).toEqual({});
		expect(h.indexer.place).toBe("child process");
		expect(h.indexer.lastReport?.added).toBe(10);
		expect(opened.index.search({ query: "amqplib" }).results[0].sessionId).toBe(SAMPLE.branched);
		expect(h.status()).toMatchObject({ state: "ready", indexer: "child process", sessions: 10 });
		expect(existsSync(`${indexPath}.locks/indexer`)).toBe(false);
		h.close();
	});
});
