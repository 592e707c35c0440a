/**
 * Claude Code's format: the real 2.1.332 files in test/fixtures/claude (written by the CLI against a fake model,
 * paths rewritten) and lines of older releases (2.0's sub-agents beside sessions, 1.0's summaries and sidechains).
 */

import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memorySource, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { readFileRange } from "../../src/node/file-range.js";
import { assistant, base, indexed, projects, S1, S2, spilledProject, user } from "./claude-lines.js";

const FIXTURE = join(import.meta.dirname, "..", "fixtures", "claude", "projects");
const SESSION = "803bb4c1-76e6-4594-9fb6-45953cf58af7";
const FORK = "4bd49a99-3a40-480d-b514-f68ee71f7e23";

describe("Claude Code's format", () => {
	it("reads the real 2.1.332 files: every record type known, the tree kept through attachments, sub-agent and fork linked", async () => {
		const { index, report } = await indexed(FIXTURE);
		expect(report).toMatchObject({ added: 3, malformedLines: 0, unknownRecords: 0, newVersions: [] });
		const session = index.session(SESSION);
		expect(session).toMatchObject({ agent: "claude", cwd: "/home/user/zebra-app" });
		const view = index.read(SESSION, { structure: true });
		expect(view.session.resumeHint).toBe(`cd /home/user/zebra-app && claude -r ${SESSION}`);
		expect(view.structure?.subagents.map((s) => s.sessionId)).toEqual(["agent-a1fa55d4f6c0a40b7"]);
		const sub = index.search({ query: "walrus configuration" }).results.find((h) => h.kind === "subagent");
		expect(sub).toMatchObject({ agent: "claude", spawnedBySessionId: SESSION });
		// The tool's result before the /compact is compacted; the prompt after it is active.
		const tool = index.search({ query: "pgbouncer transaction", role: "tool" }).results.find((h) => h.sessionId === SESSION);
		expect(tool?.branchState).toBe("compacted");
		expect(index.search({ query: "narwhal" }).results[0]?.branchState).toBe("active");
		expect(index.search({ query: "okapi" }).results[0]).toMatchObject({ sessionId: FORK, branchState: "active", role: "user" });
		// The fork copied the history after the compaction (7 messages, with their uuids): indexed once, a copied
		// message is one result, the older session's, and the fork still reads from the compaction on.
		expect(report).toMatchObject({ entriesIndexed: 20, entriesCopied: 7 });
		const narwhal = index.search({ query: "narwhal" }).results;
		expect(narwhal.map((h) => h.sessionId)).toEqual([SESSION]);
		expect(narwhal[0].forks.map((f) => f.sessionId)).toEqual([FORK]);
		expect(index.read(FORK).messages.map((m) => m.text)).toContain("after compaction ask about the narwhal");
		// Bookkeeping (attachments' system reminders, request copies) is never indexed.
		expect(index.search({ query: "CronCreate" }).results).toEqual([]);
	});

	it("joins the lines of one API message, names a tool's result by its call, and keeps thinking out", async () => {
		const root = projects({
			[`${S1}.jsonl`]: [
				user("u1", null, "how do we rotate the kafka credentials"),
				assistant("a1", "u1", "msg_1", [{ type: "thinking", thinking: "secret musing about ostriches", signature: "x" }]),
				assistant("a2", "a1", "msg_1", [{ type: "text", text: "Let me grep the vault config." }]),
				assistant("a3", "a2", "msg_1", [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "grep -r rotate vault/" } }]),
				{ ...base, type: "progress", uuid: "p1", parentUuid: "a3", data: { type: "bash_progress" } },
				user("u2", "a3", [
					{ type: "tool_result", tool_use_id: "toolu_1", content: "vault/kafka.hcl: rotate_every = 30d", is_error: false },
				]),
				assistant("a4", "u2", "msg_2", [{ type: "text", text: "Credentials rotate every 30 days." }]),
			],
		});
		const { index } = await indexed(root);
		const view = index.read(S1);
		expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
		expect(view.messages[1].text).toContain("grep the vault config");
		expect(view.messages[1].text).toContain("Bash");
		expect(index.search({ query: "kafka.hcl" }).results[0]).toMatchObject({ role: "tool", branchState: "active" });
		expect(index.search({ query: "ostriches" }).results).toEqual([]);
	});

	it("takes a title by precedence (custom, then AI, then a summary whose leaf is in the file) and skips a summary of another file", async () => {
		const root = projects({
			[`${S1}.jsonl`]: [
				{ type: "summary", summary: "Leaked title of another session", leafUuid: "elsewhere" },
				{ type: "summary", summary: "Kafka credential rotation", leafUuid: "a1" },
				user("u1", null, "rotate the kafka credentials"),
				assistant("a1", "u1", "msg_1", [{ type: "text", text: "done" }]),
			],
			[`${S2}.jsonl`]: [
				{ ...user("v1", null, "second"), sessionId: S2 },
				{ type: "ai-title", aiTitle: "An AI title", sessionId: S2 },
				{ type: "custom-title", customTitle: "My own name", sessionId: S2 },
				{ type: "ai-title", aiTitle: "A later AI title", sessionId: S2 },
			],
		});
		const { index } = await indexed(root);
		expect(index.session(S1).name).toBe("Kafka credential rotation");
		expect(index.session(S2).name).toBe("My own name");
	});

	it("links a 2.0 sub-agent beside its session, and keeps a 1.0 inline sidechain searchable", async () => {
		const root = projects({
			[`${S1}.jsonl`]: [
				user("u1", null, "audit the billing module"),
				assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "toolu_9", name: "Task", input: { prompt: "audit billing" } }]),
				user("x1", null, "inline sidechain prompt about armadillos", { isSidechain: true }),
				user("u2", "a1", [{ type: "tool_result", tool_use_id: "toolu_9", content: "agentId: 7f3e9a21 finished the audit" }]),
			],
			"agent-7f3e9a21.jsonl": [
				user("b1", null, "audit billing: look for the pangolin rounding bug", { isSidechain: true, agentId: "7f3e9a21" }),
				assistant("b2", "b1", "msg_9", [{ type: "text", text: "found it" }]),
			],
		});
		const { index } = await indexed(root);
		const sub = index.search({ query: "pangolin" }).results[0];
		expect(sub).toMatchObject({ kind: "subagent", sessionId: "agent-7f3e9a21", spawnedBySessionId: S1, agent: "claude" });
		expect(sub.spawnedByEntryId).toBe("u2");
		expect(index.read(S1, { structure: true }).structure?.subagents).toEqual([
			{ sessionId: "agent-7f3e9a21", name: "agent-7f3e9a21", entryId: "u2" },
		]);
		expect(index.search({ query: "armadillos" }).results[0]).toMatchObject({ sessionId: S1 });
	});

	it("counts malformed lines and unknown records, names a newer release once, and reads a grown file from its last byte", async () => {
		const root = projects({
			[`${S1}.jsonl`]: [
				user("u1", null, "first prompt about lemurs"),
				"{not json",
				{ ...base, type: "hologram", uuid: "h1", parentUuid: "u1" },
				{ ...assistant("a1", "h1", "msg_1", [{ type: "text", text: "answer" }]), version: "9.0.0" },
				{ ...base, type: "attachment", uuid: "t1", parentUuid: "a1", attachment: { type: "date" } },
			],
		});
		const { index, source, report } = await indexed(root);
		expect(report).toMatchObject({ malformedLines: 1, unknownRecords: 1, newVersions: ["Claude Code 9.0.0"] });
		// The next prompt hangs on the attachment that ended the file as it was first read.
		appendFileSync(join(root, "-home-user-app", `${S1}.jsonl`), `${JSON.stringify(user("u2", "t1", "second prompt about tapirs"))}\n`);
		const grown = await index.sync(source);
		expect(grown).toMatchObject({ grown: 1, rewritten: 0 });
		expect(index.search({ query: "tapirs" }).results[0].branchState).toBe("active");
		expect(index.search({ query: "lemurs" }).results[0].branchState).toBe("active");
	});

	it("indexes the whole of an output kept in tool-results/, read from beside the session wherever the config folder moved", async () => {
		const root = spilledProject("the capybara is at the end");
		const { index } = await indexed(root);
		expect(index.search({ query: "capybara" }).results[0]).toMatchObject({ sessionId: S1, role: "tool", entryId: "u2" });
	});

	it("knows a Claude Code file by its first line where no folder says whose it is (files picked in the viewer, a folder given by hand)", async () => {
		const file = readFileSync(join(FIXTURE, "-home-user-zebra-app", `${SESSION}.jsonl`));
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		const report = await index.sync(memorySource(new Map([["/picked/803bb4c1.jsonl", new Uint8Array(file)]])));
		expect(report).toMatchObject({ added: 1, unknownRecords: 0 });
		expect(index.search({ query: "narwhal" }).results[0]).toMatchObject({ agent: "claude", sessionId: SESSION });
	});

	it("cuts a snippet from the middle of a long Claude entry out of its line in the file", async () => {
		const long = `${"filler words ".repeat(2000)} the quokka sits in the middle ${"more filler ".repeat(2000)}`;
		const root = projects({ [`${S1}.jsonl`]: [user("u1", null, long)] });
		const { index } = await indexed(root);
		const hit = index.search({ query: "quokka", readRange: readFileRange }).results[0];
		expect(hit.snippet).toContain("«quokka»");
	});
});
