/**
 * The archive kept beside the index: copies as files are indexed (only the new bytes of a grown file), a gone
 * session kept and read from it in full, a file that comes back live again, an index rebuilt from the agents'
 * folders plus the archive, sessions forgotten for good, and OpenCode's sessions (rows of its database) kept as
 * the documents the index parsed.
 */
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LookbackIndex, type SessionSource } from "../../src/core/index.js";
import { FileArchive } from "../../src/node/archive-store.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { sessionFilesOf } from "../../src/node/session-files.js";
import { addMessage, addPart, addSession, FIXTURE_CHILD, FIXTURE_SESSION, fixtureDataDir, openForWrite } from "../agents/opencode-rows.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";

/** Sample sessions in a temp folder, an index in place and an archive beside it. */
async function setup(root?: string) {
	const dir = tempDir("archive");
	const sessions = root ?? join(dir, "sessions");
	if (!root) cpSync(FIXTURES, sessions, { recursive: true });
	const archive = new FileArchive(join(dir, "archive"));
	const source: SessionSource = { ...fileSource([{ path: sessions, layout: "nested" }]), archive };
	const open = async () => LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(join(dir, "index.db")) });
	const index = await open();
	return { dir, sessions, archive, source, index, open };
}

function fileOf(sessions: string, id: string): string {
	for (const folder of readdirSync(sessions)) {
		const name = readdirSync(join(sessions, folder)).find((n) => n.includes(id) && n.endsWith(".jsonl"));
		if (name) return join(sessions, folder, name);
	}
	throw new Error(`no fixture ${id}`);
}

describe("the archive", () => {
	it("keeps a copy of every file as it is indexed, and only the new bytes of a grown file", async () => {
		const { sessions, archive, source, index } = await setup();
		const first = await index.sync(source);
		expect(first.added).toBe(10);
		expect(first.archivedFiles).toBe(10);
		const corpus = readdirSync(sessions, { recursive: true })
			.map(String)
			.filter((n) => n.endsWith(".jsonl"))
			.reduce((n, f) => n + statSync(join(sessions, f)).size, 0);
		expect(archive.stats()).toMatchObject({ files: 10, gone: 0, sourceBytes: corpus });
		const path = fileOf(sessions, SAMPLE.linear);
		expect(Buffer.from(await archive.read(path, 0, statSync(path).size)).equals(readFileSync(path))).toBe(true);

		const again = await index.sync(source);
		expect(again).toMatchObject({ archivedFiles: 0, archiveBytesRead: 0, unchanged: 10 });

		const line = `${JSON.stringify({ type: "message", id: "ffff0001", parentId: null, timestamp: new Date().toISOString(), message: { role: "user", content: [{ type: "text", text: "an appended ocelot line" }], timestamp: Date.now() } })}\n`;
		appendFileSync(path, line);
		const grown = await index.sync(source);
		expect(grown).toMatchObject({ grown: 1, archivedFiles: 1 });
		// The head and tail checked (2 KiB at most) and the appended bytes: never the whole file again.
		expect(grown.archiveBytesRead).toBeLessThanOrEqual(Buffer.byteLength(line) + 3 * 1024);
		const record = archive.manifest.records.get(path)!;
		expect(record.members.length).toBe(2);
		const data = readFileSync(join(archive.dir, "data", record.data));
		// Two gzip members make one valid stream: the file as it is now.
		expect(gunzipSync(data).equals(readFileSync(path))).toBe(true);
	});

	it("keeps a session whose file is gone: found, read in full, marked gone; live again when the file comes back", async () => {
		const root = join(tempDir("gone"), "sessions");
		const sm = newSession(root, "/home/dev/zoo");
		const long = `${"the lemur enclosure log line\n".repeat(400)}the capybara middle word\n${"tail of the log\n".repeat(300)}`;
		sm.appendMessage(userMessage("plan the ocelot habitat"));
		sm.appendMessage(assistantMessage("reading the log", [{ name: "read", arguments: { path: "zoo.log" } }]));
		sm.appendMessage(toolResult("read", long));
		sm.appendMessage(assistantMessage("the ocelot habitat is planned"));
		const { archive, source, index } = await setup(root);
		await index.sync(source);
		const file = sm.getSessionFile()!;
		const bytes = readFileSync(file);
		const before = index.read(sm.getSessionId());
		rmSync(file);

		const sync = await index.sync(source, { now: () => Date.parse("2026-12-01T10:00:00Z") });
		expect(sync).toMatchObject({ gone: 1, purged: 0 });
		const found = index.search({ query: "ocelot habitat" }).results;
		expect(found.map((h) => h.sessionId)).toEqual([sm.getSessionId()]);
		expect(found[0]).toMatchObject({ source: "gone", goneAt: "2026-12-01T10:00:00.000Z" });
		const view = index.read(sm.getSessionId());
		expect(view.messages).toEqual(before.messages);
		expect(view.session).toMatchObject({ source: "gone" });
		// A word only in the cut middle of the tool output: its snippet is read from the archive.
		const middle = index.search({ query: "capybara", readRange: sessionFilesOf(archive).readRange }).results[0];
		expect(middle).toMatchObject({ inMiddle: "read from the session file" });
		expect(middle.snippet).toContain("«capybara»");
		// Read in full: the tool output the index keeps as head and tail, whole from the archive's copy.
		const stored = view.messages.find((m) => m.role === "tool")!;
		expect(stored.text).toContain("only in the word index");
		const whole = index.read(sm.getSessionId(), { wholeText: sessionFilesOf(archive).readRange }).messages.find((m) => m.role === "tool")!;
		expect(whole.text).toBe(long);
		expect(index.search({ query: "ocelot", gone: "exclude" }).results).toEqual([]);
		expect(index.search({ query: "ocelot", gone: "only" }).results).toHaveLength(1);
		expect(index.browse({ gone: "only" }).map((s) => s.sessionId)).toEqual([sm.getSessionId()]);
		expect(Buffer.from(await archive.read(file, 0, bytes.length)).equals(bytes)).toBe(true);

		const quiet = await index.sync(source);
		expect(quiet).toMatchObject({ gone: 0, purged: 0, changed: false });

		writeFileSync(file, bytes);
		const back = await index.sync(source);
		expect(back).toMatchObject({ returned: 1, added: 0, rewritten: 0 });
		expect(index.read(sm.getSessionId()).session.source).toBeUndefined();
	});

	it("rebuilds a deleted index from the agents' folders plus the archive, the gone sessions with it", async () => {
		const { dir, sessions, source, index, open } = await setup();
		await index.sync(source);
		const gone = fileOf(sessions, SAMPLE.branched);
		rmSync(gone);
		await index.sync(source, { now: () => Date.parse("2026-12-02T08:00:00Z") });
		const structure = index.read(SAMPLE.branched, { structure: true });
		index.close();
		for (const f of readdirSync(dir)) if (f.startsWith("index.db")) rmSync(join(dir, f), { recursive: true });

		const rebuilt = await open();
		const report = await rebuilt.sync(source);
		expect(report).toMatchObject({ added: 10, fromArchive: 1 });
		const hit = rebuilt.search({ query: "RabbitMQ quorum" }).results[0];
		expect(hit).toMatchObject({ sessionId: SAMPLE.branched, branchState: "abandoned", source: "gone", goneAt: "2026-12-02T08:00:00.000Z" });
		expect(rebuilt.read(SAMPLE.branched, { structure: true })).toEqual(structure);
		const again = await rebuilt.sync(source);
		expect(again).toMatchObject({ added: 0, fromArchive: 0, changed: false });
	});

	it("keeps OpenCode's sessions as the documents the index parsed, whole again when their rows change; gone when deleted; rebuilt", async () => {
		const dir = tempDir("opencode-archive");
		const data = fixtureDataDir(join(dir, "data"));
		const archive = new FileArchive(join(dir, "archive"));
		const source: SessionSource = { ...fileSource([{ path: data, layout: "opencode", agent: "opencode" }]), archive };
		const open = async () => LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(join(dir, "index.db")) });
		const index = await open();
		const db = join(data, "opencode.db");
		const parent = join(db, FIXTURE_SESSION);
		const child = join(parent, FIXTURE_CHILD);
		const documentOf = (path: string) => source.readDocument!(path);
		const copyOf = async (path: string) => Buffer.from(await archive.read(path, 0, Number.MAX_SAFE_INTEGER));

		expect(await index.sync(source)).toMatchObject({ added: 2, archivedFiles: 2 });
		const walked = (await source.walk()).files.find((f) => f.path === parent)!;
		const first = Buffer.from(await documentOf(parent));
		// The copy is the document, stamped by its rows (a count of messages and the last update), not by a byte size.
		expect(archive.manifest.records.get(parent)).toMatchObject({
			agent: "opencode",
			sessionId: FIXTURE_SESSION,
			size: first.length,
			rowsStamp: walked.size,
			mtimeMs: walked.mtimeMs,
		});
		expect((await copyOf(parent)).equals(first)).toBe(true);
		const documents = first.length + (await documentOf(child)).length;
		expect(archive.stats()).toMatchObject({ files: 2, gone: 0, sourceBytes: documents });
		expect(await index.sync(source)).toMatchObject({ unchanged: 2, archivedFiles: 0, archiveBytesRead: 0, bytesRead: 0 });

		// A message more: the session is read again whole, and stored again whole (a new copy, the old one removed).
		const writer = await openForWrite(db);
		addMessage(writer, FIXTURE_SESSION, "msg_zz1", 1_796_200_000_000, { role: "user", time: { created: 1_796_200_000_000 } });
		addPart(writer, FIXTURE_SESSION, "msg_zz1", "prt_zz1", { type: "text", text: "a later question about the axolotl" });
		writer.close();
		const oldData = archive.manifest.records.get(parent)!.data;
		expect(await index.sync(source)).toMatchObject({ rewritten: 1, unchanged: 1, archivedFiles: 1 });
		const second = Buffer.from(await documentOf(parent));
		const record = archive.manifest.records.get(parent)!;
		expect(record).toMatchObject({ size: second.length, rowsStamp: walked.size + 1, members: [[second.length, record.dataSize]] });
		expect(record.data).not.toBe(oldData);
		expect(statSync(join(archive.dir, "data", oldData), { throwIfNoEntry: false })).toBeUndefined();
		expect((await copyOf(parent)).equals(second)).toBe(true);
		expect(archive.stats().sourceBytes).toBe(documents - first.length + second.length);
		const whole = { parent: index.read(FIXTURE_SESSION).messages, child: index.read(FIXTURE_CHILD).messages };

		// The sub-agent's session deleted in OpenCode (its rows gone): kept, marked gone, read whole from the archive.
		const deleting = await openForWrite(db);
		for (const table of ["part", "message", "session"])
			deleting.run(`DELETE FROM ${table} WHERE ${table === "session" ? "id" : "session_id"} = ?`, [FIXTURE_CHILD]);
		deleting.close();
		expect(await index.sync(source, { now: () => Date.parse("2026-12-03T09:00:00Z") })).toMatchObject({ gone: 1, purged: 0 });
		expect(index.search({ query: "CHILD count the llamas", role: ["user"] }).results[0]).toMatchObject({
			sessionId: FIXTURE_CHILD,
			kind: "subagent",
			spawnedBySessionId: FIXTURE_SESSION,
			source: "gone",
			goneAt: "2026-12-03T09:00:00.000Z",
			resumeHint: `lookback restore ${FIXTURE_SESSION}`,
		});
		expect(index.read(FIXTURE_CHILD)).toMatchObject({ messages: whole.child, session: { source: "gone" } });
		expect(index.search({ query: "axolotl" }).results[0].source).toBeUndefined();

		// The database gone: every session stays, marked gone, whole.
		for (const f of readdirSync(data)) rmSync(join(data, f));
		expect(await index.sync(source)).toMatchObject({ gone: 1, purged: 0 });
		expect(index.search({ query: "axolotl" }).results[0]).toMatchObject({ sessionId: FIXTURE_SESSION, source: "gone" });
		expect(index.read(FIXTURE_SESSION)).toMatchObject({ messages: whole.parent, session: { source: "gone" } });
		expect(archive.stats()).toMatchObject({ files: 2, gone: 2 });
		expect(await index.sync(source)).toMatchObject({ gone: 0, changed: false });

		// An index rebuilt from scratch brings both back from the archive.
		const structure = index.read(FIXTURE_SESSION, { structure: true }).structure;
		index.close();
		for (const f of readdirSync(dir)) if (f.startsWith("index.db")) rmSync(join(dir, f), { recursive: true });
		const rebuilt = await open();
		expect(await rebuilt.sync(source)).toMatchObject({ added: 2, fromArchive: 2 });
		expect(rebuilt.read(FIXTURE_SESSION)).toMatchObject({ messages: whole.parent, session: { source: "gone" } });
		expect(rebuilt.read(FIXTURE_CHILD)).toMatchObject({ messages: whole.child, session: { source: "gone", kind: "subagent" } });
		expect(rebuilt.read(FIXTURE_SESSION, { structure: true }).structure).toEqual(structure);
		expect(rebuilt.search({ query: "ocelot42ridge", role: ["tool"] }).results[0]).toMatchObject({
			sessionId: FIXTURE_SESSION,
			source: "gone",
		});
		expect(await rebuilt.sync(source)).toMatchObject({ added: 0, fromArchive: 0, changed: false });
		rebuilt.close();
	});

	it("takes an OpenCode session its JSON tree held for the same session once OpenCode 1.2 moved it into its database", async () => {
		const dir = tempDir("opencode-moved");
		const data = join(dir, "opencode");
		cpSync(join(FIXTURES, "..", "opencode-legacy", "storage"), join(data, "storage"), { recursive: true });
		const archive = new FileArchive(join(dir, "archive"));
		const source: SessionSource = { ...fileSource([{ path: data, layout: "opencode", agent: "opencode" }]), archive };
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(join(dir, "index.db")) });
		expect(await index.sync(source)).toMatchObject({ added: 2, archivedFiles: 2 });
		const [moved] = index.browse({ scope: "top", agent: "opencode" });
		cpSync(join(fixtureDataDir(join(dir, "fixture")), "opencode.db"), join(data, "opencode.db"));
		const db = await openForWrite(join(data, "opencode.db"));
		addSession(db, { id: moved.sessionId, directory: moved.cwd });
		addMessage(db, moved.sessionId, "msg_mv1", 1_796_000_000_100, { role: "user", time: { created: 1_796_000_000_100 } });
		addPart(db, moved.sessionId, "msg_mv1", "prt_mv1", { type: "text", text: "moved into the database: the pangolin" });
		db.close();
		// The tree's file is no longer walked (the database holds its session): left to the database's, not kept gone beside it.
		expect(await index.sync(source)).toMatchObject({ added: 3 });
		const copies = index.browse({ scope: "all", agent: "opencode" }).filter((s) => s.sessionId === moved.sessionId);
		expect(copies.map((s) => [s.path, s.source])).toEqual([[join(data, "opencode.db", moved.sessionId), undefined]]);
		expect(index.browse({ scope: "all", gone: "only" })).toEqual([]);
		index.close();
	});

	it("purges a gone file when the archive is turned off, as before", async () => {
		const { sessions, dir } = await setup();
		const off = new FileArchive(join(dir, "archive"), { keeping: false });
		const source: SessionSource = { ...fileSource([{ path: sessions, layout: "nested" }]), archive: off };
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(join(dir, "off.db")) });
		expect((await index.sync(source)).archivedFiles).toBe(0);
		rmSync(fileOf(sessions, SAMPLE.linear));
		expect(await index.sync(source)).toMatchObject({ purged: 1, gone: 0 });
		expect(statSync(join(dir, "archive"), { throwIfNoEntry: false })).toBeUndefined();
	});
});
