/**
 * A Claude Code message copied into another file of its project is indexed once. Releases before 2.x resumed a
 * session by writing a new file with a new session id that replays the whole history (the same `uuid`s and times,
 * an old-style `summary` line first); a fork still copies the history after its last compaction. Whichever file a
 * sync meets first, in one sync or in two, and however the copy grows, the index holds the same rows: one hit for
 * a copied message, its usage once, and every session reads as its whole conversation.
 */

import { appendFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LookbackIndex } from "../../src/core/index.js";
import { readFileRange } from "../../src/node/file-range.js";
import { assistant, indexed, jsonl, PROJECT, projects, S1, S2, user } from "./claude-lines.js";

/** A fork of S1 whose file name sorts before S1's: the start of the session decides who holds a message, not the name. */
const S0 = "5d9c1c1e-0000-4000-8000-000000000000";
const at = (minute: number) => ({ timestamp: `2025-07-01T10:${String(minute).padStart(2, "0")}:00.000Z` });
const answer = (uuid: string, parent: string, id: string, text: string, minute: number, sessionId = S1) => {
	const line = assistant(uuid, parent, id, [{ type: "text", text }], { ...at(minute), sessionId });
	return { ...line, message: { ...line.message, usage: { input_tokens: 100, output_tokens: 20 } } };
};

const original = [
	user("u1", null, "how do we rotate the kafka credentials", at(0)),
	answer("a1", "u1", "msg_1", "Rotate them in the vault every thirty days.", 1),
	user("u2", "a1", "and the zookeeper ones", at(2)),
	answer("a2", "u2", "msg_2", "Those rotate with the broker restart.", 3),
];
/**
 * The copied history as the old resume wrote it: a summary line, then every line again under the new session's id
 * (the first answer's usage zeroed, as a 2.1 fork writes its copies: each line's usage is read, the original's counts).
 */
const copied = [
	{ type: "summary", summary: "Kafka credential rotation", leafUuid: "a2" },
	...original.map((l) => ({
		...l,
		sessionId: S2,
		...(l.uuid === "a1" ? { message: { ...l.message, usage: { input_tokens: 0, output_tokens: 0 } } } : {}),
	})),
];
const ownTurn = [
	user("u3", "a2", "now move the pelican certificates too", { ...at(10), sessionId: S2 }),
	answer("a3", "u3", "msg_3", "Moved the pelican certificates.", 11, S2),
];
/** A fork from the second prompt on (the part after a compaction), with a turn of its own. */
const fork = [
	...original.slice(2).map((l) => ({ ...l, sessionId: S0 })),
	user("f1", "a2", "what about the ocelot keys", { ...at(20), sessionId: S0 }),
];

const files = { [`${S1}.jsonl`]: original, [`${S2}.jsonl`]: [...copied, ...ownTurn], [`${S0}.jsonl`]: fork };
const pathOf = (root: string, id: string) => join(root, PROJECT, `${id}.jsonl`);

/** Every row the index holds of the sessions, in an order and a form that no rowid or walk order changes. */
function rows(index: LookbackIndex): unknown[] {
	const all = (sql: string) => index.db.exec(sql)[0]?.values.map((v) => v.join(" | ")) ?? [];
	const name = "substr(s.path, length(rtrim(s.path, replace(s.path, '/', ''))) + 1)";
	return [
		all(`SELECT ${name}, s.session_id, s.started, s.modified, s.message_count, s.entry_count, s.first_prompt, s.name, s.last_entry
		 FROM sessions s ORDER BY 1`),
		all(`SELECT ${name}, e.seq, e.entry_id, e.parent_id, e.type, e.role, e.state, e.ts, e.off, e.len, e.chars, e.body IS NOT NULL, e.deep
		 FROM entries e JOIN sessions s ON s.id = e.session ORDER BY 1, 2`),
		all(`SELECT ${name}, e.entry_id FROM entries_fts f JOIN entries e ON e.id = f.rowid JOIN sessions s ON s.id = e.session
		 WHERE entries_fts MATCH 'rotate OR pelican OR ocelot OR zookeeper' ORDER BY 1, 2`),
		all(
			`SELECT ${name}, e.entry_id, u.input, u.output, u.dup FROM usage u JOIN entries e ON e.id = u.entry JOIN sessions s ON s.id = u.session ORDER BY 1, 2`,
		),
		all(`SELECT ${name}, h.messages, h.input, h.output FROM usage_hours h JOIN sessions s ON s.id = h.session ORDER BY 1`),
	];
}

/** The files written with these modification times (seconds): the walk reads the oldest first. */
function withTimes(root: string, times: Record<string, number>): void {
	for (const [id, t] of Object.entries(times)) utimesSync(pathOf(root, id), t, t);
}

describe("a Claude Code message copied into another file of its project", () => {
	it("is indexed once: one hit, its usage once, and the resumed session still reads as its whole conversation", async () => {
		const root = projects(files);
		withTimes(root, { [S1]: 1000, [S2]: 2000, [S0]: 3000 });
		const { index, report } = await indexed(root);
		expect(report).toMatchObject({ added: 3, entriesIndexed: 4 + 2 + 1, entriesCopied: 4 + 2 });

		// The copied prompt is one hit, in the session that started first; the files holding it are named beside it.
		const kafka = index.search({ query: "kafka credentials" });
		expect(kafka.results.map((r) => r.sessionId)).toEqual([S1]);
		expect(kafka.results[0].forks.map((f) => f.sessionId)).toEqual([S2]);
		const zookeeper = index.search({ query: "zookeeper" }).results;
		expect(zookeeper.map((r) => r.sessionId)).toEqual([S1]);
		expect(zookeeper[0].forks.map((f) => f.sessionId)).toEqual([S2, S0]);
		expect(index.search({ query: "pelican" }).results.map((r) => r.sessionId)).toEqual([S2]);
		expect(index.stats()).toMatchObject({ sessions: 3, indexedEntries: 7 });
		expect(index.db.exec("SELECT count(*) FROM usage WHERE dup = 0")[0].values[0][0]).toBe(3);
		expect(index.usage({ by: "session" }).total).toMatchObject({ messages: 3, input: 300, output: 60 });

		// Each session reads whole, its copied part from the rows that hold the text.
		const texts = (id: string) => index.read(id).messages.map((m) => m.text);
		expect(texts(S2)).toEqual([
			"how do we rotate the kafka credentials",
			"Rotate them in the vault every thirty days.",
			"and the zookeeper ones",
			"Those rotate with the broker restart.",
			"now move the pelican certificates too",
			"Moved the pelican certificates.",
		]);
		expect(texts(S1)).toEqual(texts(S2).slice(0, 4));
		expect(texts(S0)).toEqual([...texts(S1).slice(2), "what about the ocelot keys"]);
		expect(index.readTree(S2, { readRange: readFileRange }).messages.map((m) => m.text)).toEqual(texts(S2));
		expect(index.session(S2)).toMatchObject({ message_count: 6, first_prompt: "how do we rotate the kafka credentials" });
		// A search inside the resumed session finds its copied part too, at its place in that session.
		expect(index.searchSession(S2, { query: "kafka" }).matches.map((m) => m.entryId)).toEqual(["u1"]);
	});

	it("holds the same rows whichever file the walk meets first, in one sync or two, and after a rebuild", async () => {
		const root = projects(files);
		withTimes(root, { [S1]: 1000, [S2]: 2000, [S0]: 3000 });
		const expected = rows((await indexed(root)).index);

		// The copies first: the fork (whose name sorts first) and the resume are older files than the original.
		withTimes(root, { [S0]: 1000, [S2]: 2000, [S1]: 3000 });
		expect(rows((await indexed(root)).index)).toEqual(expected);

		// The original seen by a later sync than its copies (restored, or its folder walked later).
		rmSync(pathOf(root, S1));
		const { index, source } = await indexed(root);
		writeFileSync(pathOf(root, S1), jsonl(original));
		expect(await index.sync(source)).toMatchObject({ added: 1, entriesCopied: 4 });
		expect(rows(index)).toEqual(expected);
		expect(index.search({ query: "kafka credentials" }).results.map((r) => r.sessionId)).toEqual([S1]);
	});

	it("grows from its last byte into the same rows, and a holder removed hands its messages to the next file that has them", async () => {
		const root = projects({ [`${S1}.jsonl`]: original, [`${S2}.jsonl`]: copied });
		const { index, source } = await indexed(root);
		appendFileSync(pathOf(root, S2), jsonl(ownTurn));
		const grown = await index.sync(source);
		expect(grown).toMatchObject({ grown: 1, added: 0, rewritten: 0, bytesRead: Buffer.byteLength(jsonl(ownTurn)) });
		const rebuilt = (await indexed(root)).index;
		expect(rows(index)).toEqual(rows(rebuilt));

		// The original removed (no archive keeps it): the resumed session now holds the whole conversation.
		rmSync(pathOf(root, S1));
		expect(await index.sync(source)).toMatchObject({ purged: 1 });
		expect(index.search({ query: "kafka credentials" }).results.map((r) => r.sessionId)).toEqual([S2]);
		expect(index.read(S2).messages).toHaveLength(6);
		expect(rows(index)).toEqual(rows((await indexed(root)).index));
	});
});
