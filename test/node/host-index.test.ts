/** A long-lived host's index: read in the host, synced by its indexer process, which follows the lock protocol. */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { HostIndex, type HostIndexOptions } from "../../src/node/host-index.js";
import { indexerCommand } from "../../src/node/indexer.js";
import { IndexerSlot, indexComplete } from "../../src/node/indexer-slot.js";
import { REPO } from "../agents.js";
import { copyFixtures, SAMPLE, tempDir } from "../helpers.js";

const CLI = join(REPO, "dist", "cli.js");

function host(sessions: string, indexPath: string, options: HostIndexOptions = {}) {
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

describe("the indexer's engine", () => {
	it("is compiled by Liftoff only once the index is complete, with the optimising tier for a first index", async () => {
		expect(indexerCommand(false)?.args).not.toContain("--liftoff-only");
		expect(indexerCommand(true)?.args).toContain("--liftoff-only");
		const indexPath = join(tempDir("index"), "index.db");
		const sessions = copyFixtures();
		expect(indexComplete(indexPath)).toBe(false);
		const first = host(sessions, indexPath);
		await first.fresh();
		first.close();
		// Its sync ran to its end: the next host's indexer starts for a freshness sync and a search, by Liftoff only.
		expect(indexComplete(indexPath)).toBe(true);
		const next = host(sessions, indexPath);
		const { opened } = await next.fresh();
		expect(next.indexer.lastReport).toMatchObject({ unchanged: 10, filesParsed: 0 });
		expect(opened.index.search({ query: "amqplib" }).results[0].sessionId).toBe(SAMPLE.branched);
		next.close();
	});
});

describe("one indexer at a time", () => {
	let corpus = "";
	let files = 0;
	beforeAll(() => {
		corpus = mkdtempSync(join(tmpdir(), "one-indexer-"));
		files = generateCorpus({ out: corpus, mb: 20, seed: 3 }).files;
	}, 120_000);
	afterAll(() => rmSync(corpus, { recursive: true, force: true }));

	it("follows another process's sync instead of parsing the same files, then syncs what is left", async () => {
		const indexPath = join(tempDir("index"), "index.db");
		const sessions = join(corpus, "sessions");
		const cli = (args: string[]) =>
			execFileSync(process.execPath, [CLI, ...args, "--sessions-dir", sessions, "--only-sessions-dir", "--index", indexPath], {
				encoding: "utf8",
			});
		const other = spawn(process.execPath, [CLI, "index", "--sessions-dir", sessions, "--only-sessions-dir", "--index", indexPath], {
			stdio: "ignore",
		});
		const otherDone = new Promise((resolve) => other.on("exit", resolve));
		const slot = new IndexerSlot(indexPath);
		while (!((slot.other()?.total ?? 0) > 0)) await new Promise((r) => setTimeout(r, 20));
		// A long sync runs: until it ends the index is not complete (a sync killed now would leave it so).
		expect(indexComplete(indexPath)).toBe(false);
		// Long work elsewhere: the host answers at once, with the other process's progress.
		const h = host(sessions, indexPath, { waitBytes: 0 });
		const { state } = await h.fresh();
		expect(state.indexing?.total).toBe(files);
		expect(h.status().indexing).toMatchObject({ total: files, elsewhere: true });
		// So does a CLI search, in its JSON.
		const search = JSON.parse(cli(["search", "zanzibarRetryPolicy", "--json"]));
		expect(search.indexing?.total).toBe(files);
		expect(search.sync).toBeUndefined();
		await otherDone;
		expect(indexComplete(indexPath)).toBe(true);
		// The host's indexer synced only after the other was done: it found every file indexed, parsed none.
		await h.indexer.awaited(h.indexer.sync().done);
		expect(h.indexer.lastReport).toMatchObject({ added: 0, unchanged: files, filesParsed: 0 });
		h.close();
	}, 600_000);
});
