/** The merge of a team's answers (src/core/team/merge.ts) and a manifest's page map (shard-format.ts). */

import { describe, expect, it } from "vitest";
import type { SearchHit, SearchResponse } from "../../src/core/index.js";
import { mergeSearch } from "../../src/core/team/merge.js";
import { PageMap, parseManifest, type ShardManifest } from "../../src/core/team/shard-format.js";

const hit = (sessionId: string, score: number) => ({ sessionId, score }) as SearchHit;
const response = (results: SearchHit[], extra: Partial<SearchResponse> = {}): SearchResponse => ({
	query: "q",
	results,
	totalSessions: results.length,
	...extra,
});

describe("a team's merged ranking", () => {
	it("merges by BM25, keeps each shard's own order, and names each hit's machine", () => {
		const merged = mergeSearch(
			"q",
			{
				answers: [
					// a later tier's hit scores better than an earlier one: it stays after it
					{ shard: "a", value: response([hit("a1", -9), hit("a2", -3), hit("a3", -8)]) },
					{ shard: "b", value: response([hit("b1", -7), hit("b2", -1)]) },
				],
				problems: [{ shard: "c", error: "cannot reach it" }],
			},
			4,
		);
		expect(merged.results.map((h) => `${h.shard}:${h.sessionId}`)).toEqual(["a:a1", "b:b1", "a:a2", "a:a3"]);
		expect(merged.totalSessions).toBe(5);
		expect(merged.shards).toEqual(["a", "b"]);
		expect(merged.unreachable).toEqual([{ shard: "c", error: "cannot reach it" }]);
	});

	it("leaves out the shards that corrected a word another shard has as typed", () => {
		const merged = mergeSearch(
			"q",
			{
				answers: [
					{ shard: "a", value: response([hit("a1", -2)], { correctedQuery: "kiwi0", notice: "showing results for kiwi0" }) },
					{ shard: "b", value: response([hit("b1", -5)]) },
				],
				problems: [],
			},
			10,
		);
		expect(merged.results.map((h) => h.shard)).toEqual(["b"]);
		expect(merged.notice).toBeUndefined();
	});
});

describe("a shard's manifest", () => {
	const manifest: ShardManifest = {
		format: "lookback-shard",
		version: 1,
		name: "laptop",
		publisher: "0123456789abcdef",
		generation: 2,
		publishedAt: "2026-12-07T00:00:00Z",
		pageBytes: 65536,
		size: 5 * 65536,
		packs: ["packs/old.pack", "packs/new.pack"],
		extents: [
			[0, 3, 0, 0],
			[3, 1, 1, 0],
			[4, 1, 0, 7],
		],
		open: [],
		prefetch: [],
		sessions: 1,
	};

	it("places each page in its pack", () => {
		const map = new PageMap(parseManifest(new TextEncoder().encode(JSON.stringify(manifest)), "m"));
		expect(map.locate(2)).toEqual({ pack: "packs/old.pack", offset: 2 * 65536, run: 1 });
		expect(map.locate(3)).toEqual({ pack: "packs/new.pack", offset: 0, run: 1 });
		expect(map.locate(4)).toEqual({ pack: "packs/old.pack", offset: 7 * 65536, run: 1 });
		expect(() => map.locate(5)).toThrow(/no extent/);
	});

	it("refuses a damaged manifest, naming it", () => {
		const bad = (m: object) => parseManifest(new TextEncoder().encode(JSON.stringify(m)), "shards/laptop/manifest.json");
		expect(() => bad({ ...manifest, size: 6 * 65536 })).toThrow(/names 5 pages for .* \(damaged shard\)/);
		expect(() => bad({ ...manifest, extents: [[0, 5, 9, 0]] })).toThrow(/not a lookback shard manifest/);
		expect(() => parseManifest(new TextEncoder().encode("{"), "m")).toThrow(/not JSON/);
	});
});
