/**
 * A host that watches the session folders (the MCP server's) skips the sync before a search while nothing changed,
 * and syncs before the first search after any change: a session grown, written in a new folder, in a root that was
 * not there, or removed. Counted in syncs, on real files, the indexer in its own process.
 */
import { appendFileSync, cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HostIndex } from "../../src/node/host-index.js";
import { SessionWatch } from "../../src/node/session-watch.js";
import { addMessage, addPart, FIXTURE_SESSION, fixtureDataDir, openForWrite } from "../agents/opencode-rows.js";
import { REPO } from "../agents.js";
import { tempDir } from "../helpers.js";
import { writeSession } from "../mcp/session-file.js";

const FIXTURES_ROOT = join(REPO, "test", "fixtures");
const hosts: HostIndex[] = [];
afterEach(() => {
	for (const h of hosts.splice(0)) h.close();
});

function watchingHost(home: string) {
	let syncs = 0;
	const h = new HostIndex(
		{
			agentDir: join(home, ".pi", "agent"),
			agentDirs: { omp: join(home, ".omp", "agent") },
			// A root that is not there yet: it is watched for in the nearest folder that is, the home.
			sessionsDirs: [join(home, "later", "sessions")],
			indexPath: join(home, "index.db"),
			env: { HOME: home, LOOKBACK_ARCHIVE: "off" },
		},
		{ watch: true, onSynced: () => syncs++ },
	);
	hosts.push(h);
	/** Searches as a search does: the index brought up to date first; how many syncs that took, and whether a word is found. */
	const search = async (word: string) => {
		const before = syncs;
		const { opened } = await h.fresh();
		return { syncs: syncs - before, found: opened.index.search({ query: word }).results.map((r) => r.sessionId) };
	};
	return { h, search };
}

describe.runIf(SessionWatch.supported())("a host watching the session folders", () => {
	it("searches without a sync while nothing changed, and after a change syncs first", async () => {
		const home = tempDir("watch-home");
		const pi = join(home, ".pi", "agent", "sessions");
		const texts = ["the heronlattice plan", "ok"];
		const file = writeSession(pi, "first", "/home/dev/first", texts);
		const { h, search } = watchingHost(home);

		expect(await search("heronlattice")).toEqual({ syncs: 1, found: ["first"] });
		// The first sync walked before anything was watched: one more, and from then on none.
		expect((await search("heronlattice")).syncs).toBe(1);
		expect(await search("heronlattice")).toEqual({ syncs: 0, found: ["first"] });
		expect(await search("heronlattice")).toEqual({ syncs: 0, found: ["first"] });
		expect(h.status().watch).toEqual({ paths: expect.any(Number), syncsSkipped: 2, changedFileSyncs: 0 });

		// A session grown: read at the next search, by a sync that stats that file again and walks no folder; the
		// search after needs no sync.
		appendFileSync(
			file,
			`${JSON.stringify({ type: "message", id: "m9", parentId: "m1", timestamp: "2026-11-28T10:00:09.000Z", message: { role: "user", content: [{ type: "text", text: "and the egretvault follow-up" }] } })}\n`,
		);
		expect(await search("egretvault")).toEqual({ syncs: 1, found: ["first"] });
		expect(h.indexer.lastReport).toMatchObject({ grown: 1 });
		expect(h.status().watch?.changedFileSyncs).toBe(1);
		expect((await search("egretvault")).syncs).toBe(0);

		// A session in a new project folder: found at once; the folder is watched from the sync after.
		writeSession(pi, "second", "/home/dev/second", ["the ospreyledger idea", "sure"]);
		expect(await search("ospreyledger")).toEqual({ syncs: 1, found: ["second"] });
		expect((await search("ospreyledger")).syncs).toBe(1);
		expect((await search("ospreyledger")).syncs).toBe(0);

		// A root that was not there: its folders made one by one, each seen.
		mkdirSync(join(home, "later"));
		expect((await search("ospreyledger")).syncs).toBe(1);
		writeSession(join(home, "later", "sessions"), "third", "/home/dev/third", ["the cormorantspool draft", "fine"]);
		expect(await search("cormorantspool")).toEqual({ syncs: 1, found: ["third"] });

		// A session removed: purged at the next search (no archive keeps it).
		rmSync(file);
		expect(await search("heronlattice")).toEqual({ syncs: 1, found: [] });
		expect(h.indexer.lastReport).toMatchObject({ purged: 1 });
		// Quiet again: at most one more sync, while the new folders' watches are put in place.
		const after = [await search("cormorantspool"), await search("cormorantspool")].map((s) => s.syncs);
		expect(after[1]).toBe(0);
	}, 60_000);

	it("sees a change made in another agent's folder that was not there when the host started", async () => {
		const home = tempDir("watch-home");
		writeSession(join(home, ".pi", "agent", "sessions"), "first", "/home/dev/first", ["hello", "hi"]);
		const { search } = watchingHost(home);
		await search("hello");
		await search("hello");
		expect((await search("hello")).syncs).toBe(0);
		// Claude Code's folder made from nothing (~/.claude/projects/<project>/<session>.jsonl), sub-agents and all.
		cpSync(join(FIXTURES_ROOT, "claude"), join(home, ".claude"), { recursive: true });
		const found = await search("zebra");
		expect(found.syncs).toBe(1);
		expect(found.found).toContain("803bb4c1-76e6-4594-9fb6-45953cf58af7");
	}, 60_000);

	it("stats again only the files a walk took when a file beside them that is no session is written (Codex's history)", async () => {
		const home = tempDir("watch-home");
		writeSession(join(home, ".pi", "agent", "sessions"), "first", "/home/dev/first", ["hello", "hi"]);
		cpSync(join(FIXTURES_ROOT, "codex"), join(home, ".codex"), { recursive: true });
		// Codex appends each prompt to ~/.codex/history.jsonl, beside the sessions' folder its walk lists.
		const history = join(home, ".codex", "history.jsonl");
		appendFileSync(history, `${JSON.stringify({ session_id: "x", ts: 1, text: "hello" })}\n`);
		const { h, search } = watchingHost(home);
		await search("hello");
		await search("hello");
		expect((await search("hello")).syncs).toBe(0);
		const before = h.status().watch!.changedFileSyncs;
		appendFileSync(history, `${JSON.stringify({ session_id: "x", ts: 2, text: "again" })}\n`);
		expect((await search("hello")).syncs).toBe(1);
		// The walk was made again from the last one (no folder listed anew): not the walk of every folder.
		expect(h.status().watch!.changedFileSyncs).toBe(before + 1);
		expect((await search("hello")).syncs).toBe(0);
	}, 60_000);

	it("walks again when OpenCode's database beside its sessions is written, its WAL only", async () => {
		const home = tempDir("watch-home");
		writeSession(join(home, ".pi", "agent", "sessions"), "first", "/home/dev/first", ["hello", "hi"]);
		const db = join(fixtureDataDir(join(home, ".local", "share")), "opencode.db");
		// The WAL there before the host starts: the commit below changes a file's contents, and makes none.
		const writer = await openForWrite(db);
		addMessage(writer, FIXTURE_SESSION, "msg_w0", 1_796_200_000_000, { role: "user", time: { created: 1_796_200_000_000 } });
		const { search } = watchingHost(home);
		await search("hello");
		await search("hello");
		expect((await search("hello")).syncs).toBe(0);
		addMessage(writer, FIXTURE_SESSION, "msg_w1", 1_796_200_000_001, { role: "user", time: { created: 1_796_200_000_001 } });
		addPart(writer, FIXTURE_SESSION, "msg_w1", "prt_w1", { type: "text", text: "the later question about the quokkavault" });
		const found = await search("quokkavault");
		writer.close();
		expect(found).toEqual({ syncs: 1, found: [FIXTURE_SESSION] });
	}, 60_000);
});
