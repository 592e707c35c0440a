/**
 * The archive kept beside the index: copies as files are indexed (only the new bytes of a grown file), a gone
 * session kept and read from it in full, a file that comes back live again, an index rebuilt from the agents'
 * folders plus the archive, sessions forgotten for good.
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
