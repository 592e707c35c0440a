import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSessionLines } from "../../src/agents/pi/format.js";
import { branchStates, branchThrough } from "../../src/core/parse/branch.js";
import { splitLines } from "../../src/core/parse/jsonl.js";
import { newParseState } from "../../src/core/parse/session-format.js";
import { FIXTURES, indexOf, SAMPLE } from "../helpers.js";

function fixturePath(id: string): string {
	for (const folder of readdirSync(FIXTURES, { withFileTypes: true })) {
		if (!folder.isDirectory()) continue;
		const name = readdirSync(join(FIXTURES, folder.name)).find((f) => f.includes(id));
		if (name) return join(FIXTURES, folder.name, name);
	}
	throw new Error(`no fixture ${id}`);
}

function parse(text: string) {
	const state = newParseState();
	const chunk = splitLines(new TextEncoder().encode(text));
	return { ...parseSessionLines(chunk.lines, state), state, chunk };
}

describe("parseSessionLines", () => {
	it("migrates a v1 file: ids chained in file order, compaction index to id", () => {
		const { entries, state } = parse(readFileSync(fixturePath(SAMPLE.v1), "utf8"));
		expect(state.header?.version).toBe(1);
		expect(entries[0].parentId).toBeNull();
		for (let i = 1; i < entries.length; i++) expect(entries[i].parentId).toBe(entries[i - 1].id);
		const compaction = entries.find((e) => e.type === "compaction")!;
		const kept = entries.find((e) => e.id === compaction.raw.firstKeptEntryId)!;
		expect(kept.seq).toBe(compaction.raw.firstKeptEntryIndex);
		expect(JSON.stringify(kept.raw)).toContain("Now rename --dry-run to --plan");
	});

	it("migrates a v2 hookMessage to a custom message", () => {
		const { entries } = parse(readFileSync(fixturePath(SAMPLE.v2), "utf8"));
		const hook = entries.find((e) => JSON.stringify(e.raw).includes("Working tree dirty"))!;
		expect((hook.raw.message as { role: string }).role).toBe("custom");
	});

	it("reads CRLF endings, a BOM, blank lines and a header that is not first", () => {
		const header = JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00Z", cwd: "/w" });
		const entry = JSON.stringify({
			type: "message",
			id: "a1",
			parentId: null,
			timestamp: "2026-01-01T00:00:01Z",
			message: { role: "user", content: "hi" },
		});
		const crlf = parse(`\ufeff${header}\r\n\r\n${entry}\r\n`);
		expect(crlf.state.header?.id).toBe("s1");
		expect(crlf.entries.map((e) => e.id)).toEqual(["a1"]);
		expect(crlf.malformedLines).toBe(0);
		const late = parse(`${entry}\n${header}\n`);
		expect(late.headerProblem).toBe("not-first");
		expect(late.entries).toHaveLength(1);
	});

	it("takes a final line without newline only when it is complete JSON", () => {
		const entry = JSON.stringify({ type: "message", id: "a1", parentId: null, message: { role: "user", content: "hi" } });
		expect(parse(entry).entries).toHaveLength(1);
		const half = parse(`${entry}\n${entry.slice(0, 20)}`);
		expect(half.entries).toHaveLength(1);
		expect(half.chunk.pendingBytes).toBe(20);
	});
});

describe("branchStates", () => {
	it("marks the parent walk from the last entry active, the rest abandoned, and pre-compaction entries compacted", () => {
		const nodes = [
			{ id: "a", parentId: null, seq: 1 },
			{ id: "b", parentId: "a", seq: 2 },
			{ id: "x", parentId: "b", seq: 3 },
			{ id: "c", parentId: "b", seq: 4 },
			{ id: "k", parentId: "c", seq: 5, firstKeptEntryId: "b" },
			{ id: "d", parentId: "k", seq: 6 },
		];
		const states = branchStates(nodes);
		expect([...states.entries()]).toEqual([
			[1, "compacted"],
			[2, "active"],
			[3, "abandoned"],
			[4, "active"],
			[5, "active"],
			[6, "active"],
		]);
		expect(branchThrough(nodes, "x")?.map((n) => n.id)).toEqual(["a", "b", "x"]);
		expect(branchThrough(nodes, "c")?.map((n) => n.id)).toEqual(["a", "b", "c", "k", "d"]);
	});

	it("survives a parentId cycle, missing parents and duplicate ids", () => {
		const nodes = [
			{ id: "a", parentId: "c", seq: 1 },
			{ id: "b", parentId: "a", seq: 2 },
			{ id: "c", parentId: "b", seq: 3 },
			{ id: "d", parentId: "missing", seq: 4 },
			{ id: "d", parentId: "c", seq: 5 },
		];
		const states = branchStates(nodes);
		expect(states.get(5)).toBe("active");
		expect(states.get(4)).toBe("abandoned");
		expect(states.get(1)).toBe("active");
	});
});

describe("sessions in the index", () => {
	it("records the fork link and the branch states of the sample sessions", async () => {
		const { index } = await indexOf();
		const fork = index.session(SAMPLE.fork);
		expect(fork.parent_id).toBe(SAMPLE.linear);
		expect(fork.name).toBe("Retry jitter (fork of retry policy)");
		const branched = index.read(SAMPLE.branched);
		expect(branched.messages.some((m) => m.text.includes("RabbitMQ"))).toBe(false);
		const hit = index.search({ query: "amqplib" }).results[0];
		const around = index.read(SAMPLE.branched, { around: hit.entryId, window: 2 });
		expect(around.messages.some((m) => m.entryId === hit.entryId)).toBe(true);
		expect(around.messages.length).toBeLessThanOrEqual(5);
		// The window and the bookends are the whole branch's messages, each with its text, read only where shown.
		const whole = index.read(SAMPLE.branched, { around: hit.entryId, window: 1e6 });
		expect(around.messages).toEqual(whole.messages.slice(around.offset, around.offset + around.messages.length));
		expect(around.total).toBe(whole.messages.length);
		const ends = index.read(SAMPLE.branched, { around: hit.entryId, window: 1, bookends: 2 });
		expect(ends.bookends).toEqual({ first: whole.messages.slice(0, 2), last: whole.messages.slice(-2) });
		expect(ends.messages.every((m) => m.text.length > 0)).toBe(true);
		expect(() => index.read(SAMPLE.branched, { around: hit.entryId, branchTip: branched.branchTip })).toThrow(/not on the branch/);
	});

	it("resolves a session by id prefix and refuses an ambiguous or unknown one", async () => {
		const { index } = await indexOf();
		expect(index.session(SAMPLE.chinese.slice(0, 8)).session_id).toBe(SAMPLE.chinese);
		expect(() => index.session("01a1")).toThrow(/matches several sessions/);
		expect(() => index.session("zzzz")).toThrow(/no indexed session/);
	});
});
