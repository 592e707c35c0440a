import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage, type SessionSource } from "../../src/core/index.js";
import { transactions } from "../../src/core/store/transactions.js";
import { syncIndex } from "../../src/core/sync/indexer.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { FIXTURES, indexOf, tempDir } from "../helpers.js";
import { assistantMessage, newSession, sessionWith, toolResult, userMessage } from "../pi-sessions.js";

function sessionsRoot(): string {
	const root = join(tempDir(), "sessions");
	mkdirSync(root, { recursive: true });
	return root;
}

function hits(index: LookbackIndex, query: string): number {
	return index.search({ query }).results.length;
}

/** How many segments each full-text index has (FTS5's `_idx` table has a row per segment and leaf page). */
function segments(index: LookbackIndex): Record<string, number> {
	return Object.fromEntries(
		["entries_fts", "entries_deep", "vocab_fts"].map((t) => [
			t,
			Number(index.db.exec(`SELECT count(DISTINCT segid) FROM ${t}_idx`)[0].values[0][0]),
		]),
	);
}

describe("sync", () => {
	it("merges each full-text index into one segment after a large sync, and finds the same", async () => {
		const source = fileSource([{ path: FIXTURES, layout: "nested" }]);
		const open = async () => LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		// A commit per file, as a first index of a large history commits every half second.
		const [split, merged] = [await open(), await open()];
		await split.sync(source, { batchMs: 0, optimizeBytes: Number.POSITIVE_INFINITY });
		// Counted: the merge runs a few pages a write transaction, so that readers get in between its steps.
		let commits = 0;
		const tx = transactions();
		const counted = {
			...tx,
			commit: (db: Parameters<typeof tx.commit>[0]) => {
				commits++;
				return tx.commit(db);
			},
		};
		const report = await syncIndex(merged.db, source, { batchMs: 0, optimizeBytes: 1, mergePages: 1, transactions: counted });
		expect(report.warnings).toEqual([]);
		const files = report.filesSeen;
		// A commit per file, and then more than one step of merging per table.
		expect(commits).toBeGreaterThan(files + 2 * 3);
		// (the samples' few cut entries come in one commit: entries_deep has one segment either way)
		expect(segments(split).entries_fts).toBeGreaterThan(5);
		expect(segments(split).vocab_fts).toBeGreaterThan(5);
		expect(segments(merged)).toEqual({ entries_fts: 1, entries_deep: 1, vocab_fts: 1 });
		for (const query of ["amqplib", "retry", "busyTimeout WAL", "acquireConfigPach", "数据库"])
			expect(merged.search({ query }).results.map((r) => r.entryId)).toEqual(split.search({ query }).results.map((r) => r.entryId));
		// A small sync (nothing new here) merges nothing.
		const again = await merged.sync(source, { optimizeBytes: 1 });
		expect(again.bytesRead).toBe(0);
	});

	it("commits in batches and stops at the next file when asked, the rest left for the next sync", async () => {
		const source = fileSource([{ path: FIXTURES, layout: "nested" }]);
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		const stop = new AbortController();
		const report = await index.sync(source, {
			batchMs: 0,
			signal: stop.signal,
			onProgress: (p) => {
				if (p.done === 3) stop.abort();
			},
		});
		expect(report.interrupted).toBe(true);
		expect(report.added).toBe(3);
		expect(index.stats().sessions).toBe(3);
		const rest = await index.sync(source);
		expect(rest.interrupted).toBe(false);
		expect(rest.added).toBe(7);
		expect(rest.unchanged).toBe(3);
		expect(index.stats().sessions).toBe(10);
	});

	it("indexes every sample session and parses nothing on a second sync with no change", async () => {
		const { index, source, report } = await indexOf(FIXTURES);
		expect(report.added).toBe(10);
		expect(report.filesParsed).toBe(10);
		expect(report.warnings).toEqual([]);
		const again = await index.sync(source);
		expect(again.filesParsed).toBe(0);
		expect(again.bytesRead).toBe(0);
		expect(again.fingerprintBytesRead).toBe(0);
		expect(again.unchanged).toBe(10);
		expect(again.changed).toBe(false);
	});

	it("reads only the appended bytes of a grown file", async () => {
		const root = sessionsRoot();
		const sm = newSession(root);
		sm.appendMessage(userMessage("first question about the zeppelin cache"));
		sm.appendMessage(assistantMessage("first answer"));
		const { index, source } = await indexOf(root);
		const file = sm.getSessionFile()!;
		const before = statSync(file).size;
		sm.appendMessage(userMessage("second question about the quokka scheduler"));
		sm.appendMessage(assistantMessage("second answer", [{ name: "bash", arguments: { command: "ls quokka/" } }]));
		sm.appendMessage(toolResult("bash", "quokka.ts\nscheduler.ts"));
		const appended = statSync(file).size - before;
		const report = await index.sync(source);
		expect(report.grown).toBe(1);
		expect(report.filesParsed).toBe(1);
		expect(report.bytesRead).toBe(appended);
		expect(report.fingerprintBytesRead).toBeLessThanOrEqual(1024);
		expect(hits(index, "quokka")).toBe(1);
		expect(hits(index, "zeppelin")).toBe(1);
		const view = index.read(sm.getSessionId());
		expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "tool"]);
	});

	it("leaves a half-written last line for the next sync", async () => {
		const root = sessionsRoot();
		const sm = newSession(root);
		sm.appendMessage(userMessage("hello"));
		sm.appendMessage(assistantMessage("hi"));
		const file = sm.getSessionFile()!;
		const line = JSON.stringify({
			type: "message",
			id: "abcd1234",
			parentId: sm.getLeafId(),
			timestamp: new Date().toISOString(),
			message: userMessage("the wombat protocol"),
		});
		appendFileSync(file, line.slice(0, 40));
		const { index, source, report } = await indexOf(root);
		expect(report.pendingBytes).toBe(40);
		expect(hits(index, "wombat")).toBe(0);
		appendFileSync(file, `${line.slice(40)}\n`);
		const next = await index.sync(source);
		expect(next.grown).toBe(1);
		expect(next.bytesRead).toBe(line.length - 40 + 41);
		expect(hits(index, "wombat")).toBe(1);
	});

	it("skips and counts malformed lines, keeping the rest", async () => {
		const root = sessionsRoot();
		const sm = sessionWith(root, "before the garbage: narwhal");
		appendFileSync(sm.getSessionFile()!, "{not json\n[1,2,3]\n\n");
		sm.appendMessage(userMessage("after the garbage: axolotl"));
		sm.appendMessage(assistantMessage("ok"));
		const { index, report } = await indexOf(root);
		expect(report.malformedLines).toBe(2);
		expect(hits(index, "narwhal")).toBe(1);
		expect(hits(index, "axolotl")).toBe(1);
		expect(index.stats().malformedLines).toBe(2);
	});

	it("re-indexes a file whose head changed or that shrank", async () => {
		const root = sessionsRoot();
		const sm = sessionWith(root, "original capybara text");
		const file = sm.getSessionFile()!;
		const { index, source } = await indexOf(root);
		const text = readFileSync(file, "utf8")
			.replace("capybara", "pangolin")
			.replace(/"id":"[0-9a-f-]{36}"/, '"id":"01a00000-0000-7000-8000-000000000001"');
		writeFileSync(
			file,
			`${text}${JSON.stringify({ type: "message", id: "ffff0001", parentId: sm.getLeafId(), timestamp: new Date().toISOString(), message: userMessage("more") })}\n`,
		);
		const report = await index.sync(source);
		expect(report.rewritten).toBe(1);
		expect(hits(index, "capybara")).toBe(0);
		expect(hits(index, "pangolin")).toBe(1);
		truncateSync(file, text.indexOf("\n") + 1);
		const shrunk = await index.sync(source);
		expect(shrunk.rewritten).toBe(1);
		expect(hits(index, "pangolin")).toBe(0);
	});

	it("purges a vanished file only after a complete walk of its root", async () => {
		const root = sessionsRoot();
		const sm = sessionWith(root, "the ocelot plan");
		const { index, source } = await indexOf(root);
		rmSync(sm.getSessionFile()!);
		const incomplete: SessionSource = {
			...source,
			async walk() {
				const walk = await source.walk();
				return {
					...walk,
					completeRoots: [],
					warnings: [{ kind: "incomplete-walk", roots: source.roots(), message: "a folder could not be listed" }],
				};
			},
		};
		const partial = await index.sync(incomplete);
		expect(partial.purged).toBe(0);
		expect(partial.warnings.map((w) => w.kind)).toEqual(["incomplete-walk"]);
		expect(hits(index, "ocelot")).toBe(1);
		const full = await index.sync(source);
		expect(full.purged).toBe(1);
		expect(hits(index, "ocelot")).toBe(0);
	});

	it("keeps the index and warns when the session folder disappears", async () => {
		const root = sessionsRoot();
		sessionWith(root, "the lemur plan");
		const { index, source } = await indexOf(root);
		rmSync(root, { recursive: true });
		const report = await index.sync(source);
		expect(report.purged).toBe(0);
		expect(report.warnings[0]).toMatchObject({ kind: "incomplete-walk" });
		expect(hits(index, "lemur")).toBe(1);
	});

	it("skips and counts oversized files, tmp folders and files it cannot read", async () => {
		const root = sessionsRoot();
		sessionWith(root, "x".repeat(5000), "/home/dev/big");
		sessionWith(root, "the tapir in tmp", "/tmp/scratch");
		sessionWith(root, "the tapir in private tmp", "/private/tmp/scratch");
		mkdirSync(join(root, "--home-dev-odd--", "notafile.jsonl"), { recursive: true });
		const sql = await loadEngine();
		const index = await LookbackIndex.open({ sql, storage: memoryStorage() });
		const report = await index.sync(fileSource([{ path: root, layout: "nested" }]), { maxFileBytes: 4000 });
		expect(report.skipped).toEqual({ oversized: 1, "tmp-folder": 2, unreadable: 0, "index-full": 0 });
		expect(hits(index, "tapir")).toBe(0);
	});

	it("reads the cwd from the header, not from the lossy folder name", async () => {
		const root = sessionsRoot();
		sessionWith(root, "the dingo question", "/home/dev/a-b/c");
		const { index } = await indexOf(root);
		expect(index.search({ query: "dingo" }).results[0].cwd).toBe("/home/dev/a-b/c");
	});

	it("notices an append whose mtime did not change size", async () => {
		const root = sessionsRoot();
		const sm = sessionWith(root, "hello");
		const { index, source } = await indexOf(root);
		const file = sm.getSessionFile()!;
		utimesSync(file, new Date(), new Date(Date.now() + 5000));
		const report = await index.sync(source);
		expect(report.touched).toBe(1);
		expect(report.bytesRead).toBe(0);
		const again = await index.sync(source);
		expect(again.touched).toBe(0);
	});

	it("stops taking new sessions at the index size limit, with a warning, and keeps what it has", async () => {
		const sql = await loadEngine();
		const index = await LookbackIndex.open({ sql, storage: memoryStorage() });
		const source = fileSource([{ path: FIXTURES, layout: "nested" }]);
		const report = await index.sync(source, { maxIndexBytes: 1 });
		expect(report.skipped["index-full"]).toBe(10);
		expect(report.warnings.map((w) => w.kind)).toEqual(["index-near-ceiling"]);
		expect(index.search({ query: "amqplib" }).results).toEqual([]);
		const later = await index.sync(source);
		expect(later.added).toBe(10);
	});
});
