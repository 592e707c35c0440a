/** What the viewer draws around a branch (read with `structure`), and the branch-state filter of search, over the Pi samples. */
import { describe, expect, it } from "vitest";
import { indexOf, SAMPLE } from "../helpers.js";

describe("session structure", () => {
	it("names the branches that leave the branch shown, where they leave it, and the way back", async () => {
		const { index } = await indexOf();
		const active = index.read(SAMPLE.branched, { structure: true });
		expect(active.structure?.leaves).toBe(3);
		expect(active.structure?.branches.map((b) => [b.state, b.messages])).toEqual([
			["abandoned", 4],
			["abandoned", 2],
		]);
		const [rabbit, poison] = active.structure!.branches;
		expect(rabbit.preview).toMatch(/^Let's explore \(b\) first: migrate the queue to RabbitMQ/);
		expect(poison.preview).toContain("poisonCount");
		const shownIds = active.messages.map((m) => m.entryId);
		expect(shownIds).toContain(rabbit.after);
		expect(shownIds.indexOf(rabbit.after!)).toBeLessThan(shownIds.indexOf(poison.after!));

		const abandoned = index.read(SAMPLE.branched, { around: rabbit.entryId, window: 1e6, structure: true });
		expect(abandoned.branchTip).toBe(rabbit.tip);
		expect(abandoned.messages.filter((m) => m.branchState === "abandoned")).toHaveLength(4);
		expect(abandoned.structure?.branches.map((b) => [b.state, b.after])).toEqual([["active", rabbit.after]]);
		expect(index.read(SAMPLE.branched).structure).toBeUndefined();
	});

	it("links a session to its forks", async () => {
		const { index } = await indexOf();
		expect(index.read(SAMPLE.linear, { structure: true }).structure).toMatchObject({
			leaves: 1,
			branches: [],
			subagents: [],
			forks: [{ sessionId: SAMPLE.fork }],
		});
		expect(index.read(SAMPLE.fork, { structure: true }).structure?.forks).toEqual([]);
	});

	it("searches only the entries in the branch states asked for", async () => {
		const { index } = await indexOf();
		expect(index.search({ query: "RabbitMQ" }).results.map((r) => r.branchState)).toEqual(["abandoned"]);
		expect(index.search({ query: "RabbitMQ", branch: "active" }).results).toEqual([]);
		expect(index.search({ query: "poisonCount", branch: "active" }).results.map((r) => r.role)).toEqual(["summary"]);
		expect(index.search({ query: "poisonCount", branch: ["abandoned", "compacted"] }).results.map((r) => r.branchState)).toEqual([
			"abandoned",
		]);
		expect(index.search({ query: "47813", branch: "compacted" }).results.map((r) => r.sessionId)).toEqual([SAMPLE.compaction]);
	});
});
