/**
 * A sync that finds nothing changed since a sync that read the archive and found nothing to do does not read the
 * archive's state (its manifest) again; anything that changes the walk, the index or the archive makes it read it,
 * and decide as it would have.
 */
import { appendFileSync, cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { LookbackIndex, type SessionSource } from "../../src/core/index.js";
import { FileArchive } from "../../src/node/archive-store.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";
import { assistantMessage, newSession, userMessage } from "../pi-sessions.js";

async function setup() {
	const dir = tempDir("in-step");
	const sessions = join(dir, "sessions");
	cpSync(FIXTURES, sessions, { recursive: true });
	const indexPath = join(dir, "index.db");
	const archive = new FileArchive(join(dir, "archive"), { indexPath });
	const source: SessionSource = { ...fileSource([{ path: sessions, layout: "nested" }]), archive };
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
	const reads = vi.spyOn(archive, "state");
	/** A sync, and whether it read the archive's state. */
	const sync = async (from: SessionSource = source) => {
		reads.mockClear();
		const report = await index.sync(from);
		return { report, read: reads.mock.calls.length > 0 };
	};
	return { dir, sessions, indexPath, archive, source, index, sync };
}

function fileOf(sessions: string, id: string): string {
	for (const folder of readdirSync(sessions)) {
		const name = readdirSync(join(sessions, folder)).find((n) => n.includes(id) && n.endsWith(".jsonl"));
		if (name) return join(sessions, folder, name);
	}
	throw new Error(`no fixture ${id}`);
}

const line = (text: string) =>
	`${JSON.stringify({ type: "message", id: `f${Math.random().toString(16).slice(2, 9)}`, parentId: null, timestamp: new Date().toISOString(), message: { role: "user", content: [{ type: "text", text }], timestamp: Date.now() } })}\n`;

describe("a no-change sync with the archive in step", () => {
	it("reads the archive only after something changed, and then decides as before", async () => {
		const { sessions, indexPath, archive, source, index, sync } = await setup();
		expect((await sync()).report.added).toBe(10);
		// Read, nothing to do: noted. The next finds the same and reads nothing of the archive.
		expect(await sync()).toMatchObject({ read: true, report: { unchanged: 10, archivedFiles: 0 } });
		expect(await sync()).toMatchObject({ read: false, report: { unchanged: 10, archivedFiles: 0, changed: false } });

		// A file grew: read, its copy brought up to date.
		const grown = fileOf(sessions, SAMPLE.linear);
		appendFileSync(grown, line("an appended ocelot line"));
		expect(await sync()).toMatchObject({ read: true, report: { grown: 1, archivedFiles: 1 } });
		// That sync committed: the next reads again (and notes), the one after need not.
		expect((await sync()).read).toBe(true);
		expect((await sync()).read).toBe(false);

		// A file removed: read, and the session is gone, kept from the archive.
		rmSync(fileOf(sessions, SAMPLE.branched));
		expect(await sync()).toMatchObject({ read: true, report: { gone: 1, purged: 0 } });
		expect(index.search({ query: "amqplib" }).results[0]).toMatchObject({ sessionId: SAMPLE.branched, source: "gone" });
		await sync();
		expect((await sync()).read).toBe(false);

		// A new session: read.
		const sm = newSession(sessions, "/home/dev/zoo");
		sm.appendMessage(userMessage("plan the capybara habitat"));
		sm.appendMessage(assistantMessage("the capybara habitat is planned"));
		expect(await sync()).toMatchObject({ read: true, report: { added: 1, archivedFiles: 1 } });
		await sync();
		expect((await sync()).read).toBe(false);

		// Another process commits to the index (here: a file of another folder, indexed without the archive): read.
		const other = join(tempDir("other"), "sessions");
		const there = newSession(other, "/home/dev/elsewhere");
		there.appendMessage(userMessage("the tapir question"));
		there.appendMessage(assistantMessage("the tapir answer"));
		const elsewhere = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
		expect((await elsewhere.sync(fileSource([{ path: other, layout: "nested" }]))).added).toBe(1);
		elsewhere.close();
		expect(await sync()).toMatchObject({ read: true, report: { unchanged: 10 } });
		expect((await sync()).read).toBe(false);

		// The archive removed: read, and every copy made again.
		rmSync(archive.dir, { recursive: true });
		expect(await sync()).toMatchObject({ read: true, report: { archivedFiles: 10 } });
		await sync();
		expect((await sync()).read).toBe(false);

		// What was noted made unreadable: read.
		writeFileSync(join(`${indexPath}.locks`, "archive-in-step.json"), "{");
		expect((await sync()).read).toBe(true);
		expect((await sync()).read).toBe(false);

		// The same index walked with an agent left out: its facts differ, read.
		const without = { ...fileSource([{ path: sessions, layout: "nested" }], ["claude"]), archive };
		expect((await sync(without)).read).toBe(true);
		expect(source.roots()).toEqual(without.roots());
		index.close();
	});
});
