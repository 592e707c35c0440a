/**
 * Claude Code 1.0.x's inline sidechains: a sub-agent's messages written into its parent's own file (`isSidechain`,
 * no `agentId`), each sidechain a new root whose first prompt is the `prompt` of the Task call that spawned it.
 * They stay off the session's active branch, and a hit in one names that call where the files say.
 */

import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Database } from "../../src/core/index.js";
import { search } from "../../src/core/search/search.js";
import { assistant, indexed, jsonl, PROJECT, projects, S1, user } from "./claude-lines.js";

/** The database with the text of every statement it prepares or runs kept. */
function recording(db: Database): { db: Database; sql: string[] } {
	const sql: string[] = [];
	const proxy = new Proxy(db, {
		get(target, name) {
			const value = Reflect.get(target, name, target);
			if (typeof value !== "function") return value;
			if (name !== "prepare" && name !== "exec" && name !== "run") return value.bind(target);
			return (query: string, ...rest: unknown[]) => {
				sql.push(query);
				return value.call(target, query, ...rest);
			};
		},
	});
	return { db: proxy, sql };
}

const side = { isSidechain: true };
const task = (id: string, prompt: string) => ({ type: "tool_use", id, name: "Task", input: { description: "look", prompt } });
const result = (id: string, text: string) => [{ type: "tool_result", tool_use_id: id, content: text }];

/** Two Task calls run side by side, their sidechains interleaved; then a third whose sub-agent was still at work when the file ends. */
const LINES = [
	user("u1", null, "audit the zoo module"),
	assistant("a1", "u1", "msg_1", [task("toolu_1", "find the armadillo settings"), task("toolu_2", "count the okapis")]),
	user("x1", null, "count the okapis", side),
	user("y1", null, [{ type: "text", text: "find the armadillo settings" }], side),
	assistant("x2", "x1", "msg_x", [{ type: "text", text: "three okapis grazing by the pond" }], side),
	assistant("y2", "y1", "msg_y", [{ type: "text", text: "the armadillo settings live in zoo.yaml" }], side),
	user("u2", "a1", result("toolu_1", "settings found")),
	user("u3", "u2", result("toolu_2", "okapis counted")),
	assistant("a2", "u3", "msg_2", [{ type: "text", text: "both helpers reported back" }]),
	user("z1", null, "an orphan sidechain about tapirs", side),
	assistant("a3", "a2", "msg_3", [{ type: "text", text: "one more look" }, task("toolu_3", "look for the lemur")]),
	user("w1", null, "look for the lemur", side),
	assistant("w2", "w1", "msg_w", [{ type: "text", text: "the lemur sleeps in the attic" }], side),
];

describe("Claude Code 1.0.x inline sidechains", () => {
	it("keeps each sidechain off the active branch, hung on the Task call whose prompt opened it", async () => {
		const { index } = await indexed(projects({ [`${S1}.jsonl`]: LINES }));
		// The file ends inside a sidechain: the conversation the person resumes still ends at the Task call.
		const view = index.read(S1);
		expect(view.messages.map((m) => m.entryId)).toEqual(["u1", "a1", "u2", "u3", "a2", "a3"]);
		expect(view.branchTip).toBe("a3");
		const hit = (query: string) => index.search({ query }).results[0];
		expect(hit("grazing")).toMatchObject({ sessionId: S1, entryId: "x2", kind: "session", spawnedByEntryId: "a1" });
		expect(hit("grazing").branchState).not.toBe("active");
		expect(hit("grazing").spawnedBy).toBeUndefined();
		expect(hit("zoo.yaml")).toMatchObject({ entryId: "y2", spawnedByEntryId: "a1" });
		expect(hit("attic")).toMatchObject({ entryId: "w2", spawnedByEntryId: "a3" });
		// A sidechain whose prompt no Task call made: off the active branch, naming no call.
		expect(hit("tapirs").branchState).not.toBe("active");
		expect(hit("tapirs").spawnedByEntryId).toBeUndefined();
		// The conversation's own hits name no call.
		expect(hit("helpers")).toMatchObject({ entryId: "a2", branchState: "active" });
		expect(hit("helpers").spawnedByEntryId).toBeUndefined();
		// Read around a hit in a sidechain: the conversation up to the call, then the sub-agent's messages.
		const around = index.read(S1, { around: "w2", window: 10 });
		expect(around.messages.map((m) => m.entryId)).toEqual(["u1", "a1", "u2", "u3", "a2", "a3", "w1", "w2"]);
		// The viewer's structure draws each sidechain as a branch leaving after the call that spawned it.
		const leaving = index.read(S1, { structure: true }).structure?.branches.map((b) => [b.after, b.entryId]);
		expect(leaving).toEqual(
			expect.arrayContaining([
				["a1", "x1"],
				["a1", "y1"],
				["a3", "w1"],
			]),
		);
	});

	it("keeps a sidechain that starts in a later chunk of a grown file off the active branch", async () => {
		const root = projects({ [`${S1}.jsonl`]: LINES.slice(0, 11) });
		const { index, source } = await indexed(root);
		expect(index.read(S1).branchTip).toBe("a3");
		appendFileSync(join(root, PROJECT, `${S1}.jsonl`), jsonl(LINES.slice(11)));
		expect(await index.sync(source)).toMatchObject({ grown: 1, rewritten: 0 });
		expect(index.read(S1).branchTip).toBe("a3");
		expect(index.search({ query: "attic" }).results[0].branchState).not.toBe("active");
	});

	it("leaves a 2.0 sub-agent's own file as its own session: its lines are sidechains with an agentId", async () => {
		const root = projects({
			[`${S1}.jsonl`]: LINES.slice(0, 2),
			"agent-7f3e9a21.jsonl": [
				user("b1", null, "count the okapis", { ...side, agentId: "7f3e9a21" }),
				assistant("b2", "b1", "msg_9", [{ type: "text", text: "five okapis in the barn" }], { ...side, agentId: "7f3e9a21" }),
			],
		});
		const { index } = await indexed(root);
		const sub = index.search({ query: "barn" }).results[0];
		expect(sub).toMatchObject({ sessionId: "agent-7f3e9a21", kind: "subagent", branchState: "active", spawnedBySessionId: S1 });
		// Nothing of it was hung on the parent's Task call.
		expect(index.read(S1).messages.map((m) => m.entryId)).toEqual(["u1", "a1"]);
	});

	it("reads a session's tree for a hit's spawning call only when the hit is on an abandoned branch", async () => {
		// The real 2.1.332 files: the tool's result before the /compact is compacted, on no side branch. Reading every
		// entry of the session for each such hit made queries over Claude Code's sessions 1.3× slower.
		const { index } = await indexed(join(import.meta.dirname, "..", "fixtures", "claude", "projects"));
		const compacted = recording(index.db);
		const hit = search(compacted.db, { query: "pgbouncer transaction", role: "tool" }).results[0];
		expect(hit.branchState).toBe("compacted");
		expect(compacted.sql.some((q) => /SELECT entry_id, parent_id, seq, type FROM entries/.test(q))).toBe(false);
		const sidechains = await indexed(projects({ [`${S1}.jsonl`]: LINES }));
		const abandoned = recording(sidechains.index.db);
		expect(search(abandoned.db, { query: "okapis grazing" }).results[0]).toMatchObject({
			branchState: "abandoned",
			spawnedByEntryId: "a1",
		});
		expect(abandoned.sql.some((q) => /SELECT entry_id, parent_id, seq, type FROM entries/.test(q))).toBe(true);
		index.close();
		sidechains.index.close();
	});
});
