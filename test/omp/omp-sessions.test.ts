/** oh-my-pi's session store: title slot and renames, sub-agent transcripts, gzipped archives. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { ARCHIVED, ompStore, PARENT, titleSlot } from "./omp-store.js";

async function open(store: ReturnType<typeof ompStore>) {
	const agentDir = join(store.home, ".pi", "agent");
	return openNodeIndex({ agentDir, indexPath: join(store.home, "index.db"), env: { HOME: store.home } });
}

describe("omp sessions", () => {
	it("indexes an omp session: title slot and renames, developer and python messages, omp's resume command", async () => {
		const store = ompStore();
		const { index, source } = await open(store);
		const report = await index.sync(source);
		expect(report.added).toBe(3);
		const hit = index.search({ query: "bankers rounding" }).results[0];
		expect(hit).toMatchObject({
			sessionId: PARENT,
			agent: "omp",
			kind: "session",
			name: "Cart rounding bug",
			resumeHint: `omp --resume ${PARENT}`,
		});
		expect(index.search({ query: "harness note" }).results[0].role).toBe("meta");
		expect(index.search({ query: '"Cart rounding bug"', role: "meta" }).results.map((r) => r.sessionId)).toEqual([PARENT]);
	});

	it("links a sub-agent transcript to the session that spawned it, and scope leaves it out", async () => {
		const store = ompStore();
		const { index, source } = await open(store);
		await index.sync(source);
		const sub = index.search({ query: "pelican formatter" }).results[0];
		expect(sub).toMatchObject({
			kind: "subagent",
			spawnedBySessionId: PARENT,
			spawnedBy: store.parentFile,
			spawnedByEntryId: "0000000a",
			resumeHint: `omp --resume ${PARENT}`,
		});
		expect(index.search({ query: "pelican formatter", scope: "top" }).results).toEqual([]);
		expect(index.search({ query: "rounds money", role: "meta" }).results[0].kind).toBe("subagent");
		expect(index.browse().map((s) => s.kind)).toEqual(["session", "archived"]);
		expect(index.browse({ scope: "all" })).toHaveLength(3);
	});

	it("indexes a gzipped archive once and marks it archived", async () => {
		const store = ompStore();
		const { index, source } = await open(store);
		await index.sync(source);
		expect(index.search({ query: "flamingo" }).results[0]).toMatchObject({ sessionId: ARCHIVED, kind: "archived", agent: "omp" });
		const again = await index.sync(source);
		expect(again.filesParsed).toBe(0);
	});

	it("picks up a title slot rewritten in place without reading the body again", async () => {
		const store = ompStore();
		const { index, source } = await open(store);
		await index.sync(source);
		const bytes = readFileSync(store.parentFile);
		writeFileSync(store.parentFile, Buffer.concat([Buffer.from(titleSlot("Renamed by hand")), bytes.subarray(256)]));
		const report = await index.sync(source);
		expect(report).toMatchObject({ rewritten: 0, grown: 0, filesParsed: 0, bytesRead: 0, retitled: 1 });
		expect(index.session(PARENT).name).toBe("Renamed by hand");
		expect(index.search({ query: "bankers rounding" }).results[0].name).toBe("Renamed by hand");
	});
});
