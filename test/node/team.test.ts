/**
 * A team's history in a folder bucket (file://): the real CLI publishing machines' shards and reading them back with
 * --remote. Redaction (no planted secret in any object), small publishes, a publish killed before its manifest, two
 * machines publishing at once, a damaged shard named while the others answer.
 */

import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { tempDir } from "../helpers.js";
import { PLANTED } from "../secrets.js";
import { filesUnder, json, lookback, machine, session, shardFile, shardTexts, started } from "../team-helpers.js";

const bucketOf = () => {
	const dir = join(tempDir("bucket"), "team");
	return { dir, url: pathToFileURL(dir).href };
};

type Hit = { shard: string; sessionId: string; snippet: string };

describe("lookback publish and --remote over a folder", () => {
	it("publishes every text redacted: no planted secret reaches the bucket, and the remote reads the rest whole", async () => {
		const laptop = machine("laptop");
		const all = PLANTED.map((p) => p.text).join("\n");
		const id = session(laptop, "quokka rotation", `the middle of the log: pangolinMiddleWord\n${all}`);
		const bucket = bucketOf();
		const published = json(await lookback(["publish", bucket.url, "--as", "laptop", "--json", ...laptop.args]));
		expect(published.sessions).toBe(1);

		const bytes = filesUnder(bucket.dir)
			.map((f) => f.bytes.toString("latin1"))
			.join("\n");
		const texts = shardTexts(shardFile(bucket.dir, "laptop"));
		for (const p of PLANTED) {
			expect(bytes.includes(p.secret), `${p.kind} in the bucket's bytes`).toBe(false);
			expect(texts.includes(p.secret), `${p.kind} in the shard's texts`).toBe(false);
		}
		expect(texts).toContain("[REDACTED:");

		// The word in the unstored middle of the long output is found, and its snippet read from the shard's own line.
		const found = json(await lookback(["search", "pangolinMiddleWord", "--remote", bucket.url, "--json"]));
		const hits = found.results as Hit[];
		expect(hits.map((h) => [h.shard, h.sessionId])).toEqual([["laptop", id]]);
		expect(hits[0].snippet).toContain("pangolinMiddleWord");
		const read = await lookback(["read", id, "--full", "--remote", bucket.url]);
		expect(read.code, read.stderr).toBe(0);
		expect(read.stdout).toContain("on laptop");
		expect(read.stdout).toContain("pangolinMiddleWord");
		expect(read.stdout).toContain("[REDACTED:");
		for (const p of PLANTED) expect(read.stdout.includes(p.secret), p.kind).toBe(false);
		// A secret's own word finds nothing: it is in no word index of the shard.
		const secretWord = json(await lookback(["search", "AKIA2E0A8F3B244C9986", "--remote", bucket.url, "--json"]));
		expect(secretWord.results).toEqual([]);
	});

	it("a publish that changed little sends little, and the team sees the change", async () => {
		const laptop = machine("laptop");
		// 10 MB of generated sessions: a shard of some size, as a small change leaves most of its pages as they were.
		generateCorpus({ out: dirname(laptop.sessions), mb: 10, seed: 3, force: true });
		const bucket = bucketOf();
		const first = json(await lookback(["publish", bucket.url, "--as", "laptop", "--json", ...laptop.args]));
		expect(first.uploadedBytes).toBeGreaterThanOrEqual(first.shardBytes as number);
		const again = json(await lookback(["publish", bucket.url, "--as", "laptop", "--json", ...laptop.args]));
		expect(again.newPages).toBe(0);
		session(laptop, "numbat migration", "one more");
		const small = json(await lookback(["publish", bucket.url, "--as", "laptop", "--json", ...laptop.args]));
		expect(small.sessions).toBe((first.sessions as number) + 1);
		expect(small.generation).toBe(3);
		expect(small.laidOut).toBe(false);
		expect(small.uploadedBytes as number).toBeLessThan((small.shardBytes as number) * 0.25);
		const found = json(await lookback(["search", "numbat", "--remote", bucket.url, "--json"]));
		expect((found.results as Hit[]).length).toBe(1);
		// Packs the manifest no longer names, nor the one before it, are removed.
		const manifest = JSON.parse(readFileSync(join(bucket.dir, "shards", "laptop", "manifest.json"), "utf8"));
		expect(readdirSync(join(bucket.dir, "shards", "laptop", "packs")).length).toBeLessThanOrEqual(manifest.packs.length + 2);
	});

	it("a publish killed before its manifest switched leaves the last good shard readable; the next one completes", async () => {
		const laptop = machine("laptop");
		session(laptop, "echidna cache");
		const bucket = bucketOf();
		json(await lookback(["publish", bucket.url, "--as", "laptop", "--json", ...laptop.args]));
		session(laptop, "platypus queue");
		const run = started(["publish", bucket.url, "--as", "laptop", ...laptop.args], { LOOKBACK_TEST_PUBLISH_STALL: "1" });
		for (let i = 0; i < 600 && !run.stderr().includes("manifest not yet switched"); i++) await new Promise((r) => setTimeout(r, 50));
		expect(run.stderr()).toContain("manifest not yet switched");
		const closed = new Promise((r) => run.child.once("close", r));
		run.child.kill("SIGKILL");
		await closed;

		const old = json(await lookback(["search", "echidna", "--remote", bucket.url, "--json"]));
		expect((old.results as Hit[]).length).toBe(1);
		expect(json(await lookback(["search", "platypus", "--remote", bucket.url, "--json"])).results).toEqual([]);
		const next = json(await lookback(["publish", bucket.url, "--as", "laptop", "--json", ...laptop.args]));
		expect(next.generation).toBe(2);
		expect((json(await lookback(["search", "platypus", "--remote", bucket.url, "--json"])).results as Hit[]).length).toBe(1);
	});

	it("two machines publishing at once lose nothing", async () => {
		const bucket = bucketOf();
		const machines = ["laptop", "devbox", "ci-1"].map((name, i) => {
			const m = machine(name);
			session(m, `marsupial${i} deploy`);
			return { name, m };
		});
		const runs = await Promise.all(machines.map(({ name, m }) => lookback(["publish", bucket.url, "--as", name, "--json", ...m.args])));
		for (const ran of runs) expect(ran.code, ran.stderr).toBe(0);
		const listing = JSON.parse(readFileSync(join(bucket.dir, "lookback-team.json"), "utf8"));
		expect(listing.shards).toEqual(["ci-1", "devbox", "laptop"]);
		const found = json(await lookback(["search", "deploy", "--remote", bucket.url, "--json"]));
		expect((found.results as Hit[]).map((h) => h.shard).sort()).toEqual(["ci-1", "devbox", "laptop"]);
		const browse = json(await lookback(["browse", "--remote", bucket.url, "--json"]));
		expect((browse.sessions as { shard: string }[]).length).toBe(3);
		const usage = json(await lookback(["usage", "--by", "agent", "--remote", bucket.url, "--json"]));
		expect((usage.total as { sessions: number }).sessions).toBe(3);
		// Another machine under a name taken is refused, in one line.
		const other = machine("intruder");
		session(other, "wombat");
		const refused = await lookback(["publish", bucket.url, "--as", "laptop", ...other.args]);
		expect(refused.code).toBe(2);
		expect(refused.stderr.trim().split("\n")).toHaveLength(1);
		expect(refused.stderr).toContain("published by another machine");
	});

	it("a damaged or missing shard is named in the reply while the others answer", async () => {
		const bucket = bucketOf();
		for (const name of ["good", "torn", "gone"]) {
			const m = machine(name);
			session(m, `bilby ${name}`);
			json(await lookback(["publish", bucket.url, "--as", name, "--json", ...m.args]));
		}
		const packs = join(bucket.dir, "shards", "torn", "packs");
		for (const pack of readdirSync(packs)) truncateSync(join(packs, pack), 4096);
		rmSync(join(bucket.dir, "shards", "gone", "manifest.json"));
		const listing = JSON.parse(readFileSync(join(bucket.dir, "lookback-team.json"), "utf8"));
		expect(listing.shards).toContain("gone");

		const found = json(await lookback(["search", "bilby", "--remote", bucket.url, "--json"]));
		expect((found.results as Hit[]).map((h) => h.shard)).toEqual(["good"]);
		const unreachable = found.unreachable as { shard: string; error: string }[];
		expect(unreachable.map((u) => u.shard)).toEqual(["gone", "torn"]);
		expect(unreachable[0].error).toContain("missing");
		expect(unreachable[1].error).toMatch(/damaged|shorter/);
		const text = await lookback(["search", "bilby", "--remote", bucket.url]);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/shard torn did not answer: .+/);

		writeFileSync(join(bucket.dir, "shards", "good", "manifest.json"), "{ not json");
		const none = await lookback(["search", "bilby", "--remote", bucket.url]);
		expect(none.code).toBe(1);
		expect(none.stdout).toContain("shard good did not answer");
	});
});
