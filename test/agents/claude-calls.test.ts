/**
 * Every Claude Code call that cost money, counted once: the compaction summariser's own transcript
 * (`subagents/agent-acompact-*.jsonl`, as Claude Code 2.1.39 wrote it: its lines copied from the session, then the
 * summary call) counted, kept in the archive's list of what a restore writes back, but never searched or browsed; a
 * sub-agent's call recorded only in its parent's `progress` line (`agent_progress`, 2.1.39's shape, which the 2.1.332
 * binary the tests drive no longer writes) counted; one whose sub-agent file is indexed too counted once.
 * The session and its sub-agent are test/fixtures/claude (the real 2.1.332 CLI against the fake model server).
 */

import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "claude", "projects");
const PROJECT = "-home-user-zebra-app";
const SESSION = "803bb4c1-76e6-4594-9fb6-45953cf58af7";
const SUBAGENT = "agent-a1fa55d4f6c0a40b7.jsonl";

function lines(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.trimEnd()
		.split("\n")
		.map((l) => JSON.parse(l));
}

/** The fixture's project copied, with a summariser's transcript beside the sub-agent and progress lines in the session. */
function history(progressOnly: boolean): string {
	const root = join(tempDir("claude-calls"), "projects");
	cpSync(join(FIXTURES, PROJECT), join(root, PROJECT), { recursive: true });
	const dir = join(root, PROJECT);
	const sessionPath = join(dir, `${SESSION}.jsonl`);
	const session = lines(sessionPath);
	const answer = session.find((o) => o.type === "assistant") as Record<string, unknown>;
	// The summariser: the session's lines up to the compaction, as a sidechain of agent "acompact-…", then its own call.
	const agentId = "acompact-7d1e0c3b9a";
	const copied = session
		.slice(
			0,
			session.findIndex((o) => (o as { subtype?: string }).subtype === "compact_boundary"),
		)
		.filter((o) => o.type === "user" || o.type === "assistant")
		.map((o) => ({ ...o, isSidechain: true, agentId }));
	const last = copied[copied.length - 1];
	const summary = {
		...answer,
		isSidechain: true,
		agentId,
		parentUuid: (last as { uuid?: string }).uuid,
		uuid: "5b0f3c1e-0000-4000-8000-00000000acom",
		timestamp: "2026-12-01T11:22:40.000Z",
		message: {
			...(answer.message as object),
			id: "msg_compact1",
			content: [{ type: "text", text: "<summary>the quagga decision</summary>" }],
			usage: { input_tokens: 5000, output_tokens: 300, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
		},
	};
	writeFileSync(
		join(dir, SESSION, "subagents", `agent-${agentId}.jsonl`),
		`${[...copied, summary].map((o) => JSON.stringify(o)).join("\n")}\n`,
	);
	// The sub-agent's answer as its parent's progress line recorded it; and one call of a sub-agent with no file.
	const subPath = join(dir, SESSION, "subagents", SUBAGENT);
	const subAnswer = lines(subPath).find((o) => o.type === "assistant") as Record<string, unknown>;
	const progress = (uuid: string, message: Record<string, unknown>, agent: string) => ({
		parentUuid: (session.find((o) => o.type === "user") as { uuid: string }).uuid,
		isSidechain: false,
		type: "progress",
		data: { type: "agent_progress", agentId: agent, prompt: "find the walrus config", message },
		toolUseID: "agent_msg_1",
		parentToolUseID: "toolu_fake4",
		uuid,
		timestamp: "2026-12-01T11:22:34.000Z",
		sessionId: SESSION,
		version: "2.1.39",
		cwd: "/home/user/zebra-app",
	});
	const lost = {
		type: "assistant",
		uuid: "9d2f1a7c-0000-4000-8000-000000000002",
		timestamp: "2026-12-01T11:22:35.000Z",
		message: {
			...(subAnswer.message as object),
			id: "msg_lost1",
			usage: { input_tokens: 700, output_tokens: 70, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
		},
	};
	const extra = [
		progress(
			"9d2f1a7c-0000-4000-8000-000000000001",
			{ type: "assistant", uuid: subAnswer.uuid, timestamp: subAnswer.timestamp, message: subAnswer.message },
			"a1fa55d4f6c0a40b7",
		),
		progress("9d2f1a7c-0000-4000-8000-000000000003", lost, "a0000000000000001"),
	];
	writeFileSync(sessionPath, `${[...session, ...extra].map((o) => JSON.stringify(o)).join("\n")}\n`);
	if (progressOnly) writeFileSync(subPath, "");
	return root;
}

async function indexOf(root: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	await index.sync(fileSource([{ path: root, layout: "claude", agent: "claude" }]));
	return index;
}

describe("Claude Code: every call counted once", () => {
	it("the summariser's call counted, its copies of the session's answers not again; never searched nor browsed", async () => {
		const index = await indexOf(history(false));
		// By hand: the fixture's 8 answers (agent-usage.test.ts), each 100 input / 20 output, plus the summary call
		// (5000 / 300) and the call recorded only in a progress line (700 / 70); the sub-agent's own answer, also in a
		// progress line, once.
		expect(index.usage().total).toMatchObject({ messages: 10, input: 800 + 5000 + 700, output: 160 + 300 + 70 });
		expect(index.search({ query: "quagga" }).results).toEqual([]);
		expect(index.browse({ scope: "all" }).map((s) => s.kind)).not.toContain("summariser");
		// What a restore of the session writes back: its file, its sub-agent's and the summariser's.
		const kinds = index.matching({ session: SESSION }).map((s) => s.kind);
		expect(kinds.sort()).toEqual(["session", "subagent", "summariser"]);
		index.close();
	});

	it("a sub-agent's calls recorded only in its parent's progress lines counted", async () => {
		const index = await indexOf(history(true));
		// The sub-agent's file empty: its one answer is read from the progress line instead (100 / 20).
		expect(index.usage().total).toMatchObject({ messages: 10, input: 800 + 5000 + 700, output: 160 + 300 + 70 });
		index.close();
	});
});
