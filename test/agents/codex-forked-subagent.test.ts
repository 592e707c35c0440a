/**
 * A sub-agent rollout that begins with its parent's forked history, as Codex 0.128.0 writes it (test/fixtures/codex-0.128,
 * see its README): no ordinals and no thread ids in its records, so its own turn is known only by its turn id, made
 * after the thread was. Its own turns are its messages, the copied history is indexed in the parent only, and its
 * usage is what it added to the totals it carried on from its parent.
 */

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codexFormat } from "../../src/agents/codex/format.js";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { parseBytes } from "../../src/core/parse/formats.js";
import { newParseState, type SessionEntry } from "../../src/core/parse/session-format.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

const HOME = join(import.meta.dirname, "..", "fixtures", "codex-0.128");
const DAY = join("sessions", "2026", "12", "07");
const PARENT = "01a25046-7de3-7131-ab6e-8f22854b5429";
const CHILD = "01a25046-8271-7002-946d-835722e69277";
const CHILD_FILE = `rollout-2026-12-07T11-32-07-${CHILD}.jsonl`;

function parse(bytes: Uint8Array) {
	const state = newParseState();
	return { state, parsed: parseBytes(codexFormat, bytes, state, 0, true) };
}

function said(e: SessionEntry): string {
	const message = e.raw.message as { role?: string; content?: { text?: string; name?: string }[] } | undefined;
	return `${message?.role ?? e.type}: ${(message?.content ?? []).map((b) => b.text ?? `${b.name}()`).join(" ")}`;
}

async function indexOver(path: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	const report = await index.sync(fileSource([{ path, layout: "codex", agent: "codex" }]));
	return { index, report };
}

describe("a Codex 0.128.0 sub-agent forked with its parent's history", () => {
	it("takes its own turn as its messages, after the parent's history it replays", () => {
		const { state, parsed } = parse(readFileSync(join(HOME, DAY, CHILD_FILE)));
		expect(parsed.malformedLines).toBe(0);
		expect(parsed.unknownRecords ?? 0).toBe(0);
		expect(state.header).toMatchObject({ id: CHILD, spawnedById: PARENT, cwd: "/home/user/proj" });
		const messages = parsed.entries.filter((e) => e.type === "message").map(said);
		expect(messages).toEqual([
			"user: CHILD count the words: SHELL wc -w notes.md",
			"assistant: exec_command()",
			expect.stringMatching(/^toolResult: .*\n3 notes\.md/s),
			expect.stringMatching(/^assistant: TOOL RESULT: /),
		]);
		// Nothing of the parent's turns: its prompts stay the parent's.
		expect(messages.join("\n")).not.toContain("Look around please");
		expect(messages.join("\n")).not.toContain("Now delegate");
	});

	it("finds its own shell call, links it to its parent, and indexes the parent's turns in the parent only", async () => {
		const { index, report } = await indexOver(HOME);
		expect(report).toMatchObject({ added: 2, unknownRecords: 0, malformedLines: 0 });
		const wc = index.search({ query: "wc -w notes.md" }).results;
		const child = wc.find((h) => h.sessionId === CHILD);
		expect(child).toMatchObject({
			kind: "subagent",
			spawnedBySessionId: PARENT,
			firstPrompt: "CHILD count the words: SHELL wc -w notes.md",
		});
		// Its prompt, its shell call, the call's output and its answer are its own (the parent's wait_agent result quotes the answer).
		const own = index.searchSession(CHILD, { query: "notes", role: ["user", "assistant", "tool"] }).matches.map((m) => m.role);
		expect(own).toEqual(["user", "assistant", "tool", "assistant"]);
		const looked = index.search({ query: "Look around please", role: "user" }).results;
		expect(looked.map((h) => [h.sessionId, h.hits])).toEqual([[PARENT, 1]]);
		expect(
			index
				.read(CHILD)
				.messages.filter((m) => m.role === "user")
				.map((m) => m.text),
		).toEqual(["CHILD count the words: SHELL wc -w notes.md"]);
	});

	it("counts its usage as what it added to the totals it carries on from its parent", async () => {
		const { index } = await indexOver(HOME);
		const rows = Object.fromEntries(index.usage({ by: "session" }).rows.map((r) => [r.key, [r.messages, r.input, r.output]]));
		// Seven requests of 100 tokens in and 10 out: five the parent's (two turns, the spawn and the wait), two the sub-agent's.
		expect(rows).toEqual({ [PARENT]: [5, 500, 50], [CHILD]: [2, 200, 20] });
	});

	it("finds its own turn where turn ids are not time-ordered: the turn that starts while the replayed one is open", () => {
		const text = readFileSync(join(HOME, DAY, CHILD_FILE), "utf8");
		// Every turn id made a version-4 id: the ordering of ids says nothing then.
		const v4 = text.replace(/"turn_id":"([0-9a-f]{8}-[0-9a-f]{4}-)7/g, '"turn_id":"$14');
		expect(v4).not.toBe(text);
		const { parsed } = parse(new TextEncoder().encode(v4));
		expect(parsed.entries.filter((e) => e.type === "message").map(said)[0]).toBe("user: CHILD count the words: SHELL wc -w notes.md");
	});

	it("reads the same when its rollout grows after the replay: the rest of its turn and its usage", async () => {
		const home = tempDir("codex-128-grows");
		cpSync(HOME, home, { recursive: true });
		const file = join(home, DAY, CHILD_FILE);
		const lines = readFileSync(file, "utf8").split("\n");
		// The rollout as it stood when the sub-agent had called the shell and not yet had the call's usage, then the rest.
		const cut = lines.findIndex((l) => l.includes('"type":"function_call"'));
		expect(cut).toBeGreaterThan(20);
		writeFileSync(file, `${lines.slice(0, cut + 1).join("\n")}\n`);
		const { index } = await indexOver(home);
		expect(index.read(CHILD).messages.map((m) => m.role)).toEqual(["meta", "meta", "user", "assistant"]);
		writeFileSync(file, lines.join("\n"));
		await index.sync(fileSource([{ path: home, layout: "codex", agent: "codex" }]));
		expect(index.read(CHILD).messages.map((m) => m.role)).toEqual(["meta", "meta", "user", "assistant", "tool", "assistant"]);
		const child = index.usage({ by: "session" }).rows.find((r) => r.key === CHILD);
		expect(child).toMatchObject({ input: 200, output: 20 });
	});
});
