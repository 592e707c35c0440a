/**
 * OpenCode's sessions: the database the real opencode 1.18.33 wrote (test/fixtures/opencode, scrubbed), rows built
 * for what the CLI could not be made to write here (files, subtasks, reasoning, errors, reverts, bad rows, a newer
 * version), the JSON tree of releases before 1.2.0 (as the real 1.1.65 wrote it, test/fixtures/opencode-legacy, and
 * built), a commit found only in the WAL, and a database another process writes while lookback reads it.
 */

import { spawn } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { opencodeFormat } from "../../src/agents/opencode/format.js";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { newParseState, type SessionEntry } from "../../src/core/parse/session-format.js";
import { readWhole } from "../../src/core/replies/read.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { piSessionRoots } from "../../src/node/open.js";
import { sessionPathInRoots } from "../../src/node/paths.js";
import { WalSnapshot } from "../../src/node/wal-snapshot.js";
import { tempDir } from "../helpers.js";
import { FIXTURE_PROJECT } from "./opencode-fixture.js";
import { addMessage, addPart, addSession, FIXTURE_CHILD, FIXTURE_SESSION, fixtureDataDir, openForWrite } from "./opencode-rows.js";

const WRITER = join(import.meta.dirname, "opencode-writer.mjs");
const LEGACY_TREE = join(import.meta.dirname, "..", "fixtures", "opencode-legacy", "storage");
const LEGACY_SESSION = "ses_dcc152bdaffekcALFt6qaSu9Kw";
const LEGACY_CHILD = "ses_dcc14fb51ffepQypchHirGy1Xa";

async function indexed(dataDir: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	const source = fileSource([{ path: dataDir, layout: "opencode", agent: "opencode" }]);
	return { index, source, report: await index.sync(source) };
}

function entriesOf(doc: Uint8Array): SessionEntry[] {
	return opencodeFormat.parseDocument!(doc, newParseState())!.entries;
}

const role = (e: SessionEntry) => (e.raw.message as { role?: string } | undefined)?.role ?? e.type;

describe("the database the real OpenCode wrote", () => {
	it("indexes both sessions: the tool's output, the title, the project, compaction and the sub-agent's link", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const { index, report } = await indexed(dir);
		expect(report).toMatchObject({ added: 2, malformedLines: 0, unknownRecords: 0, newVersions: [], warnings: [] });
		const tool = index.search({ query: "ocelot42ridge", role: ["tool"] }).results[0];
		expect(tool).toMatchObject({
			sessionId: FIXTURE_SESSION,
			agent: "opencode",
			kind: "session",
			cwd: FIXTURE_PROJECT,
			name: "Quokka title Look around please.",
			branchState: "compacted",
			resumeHint: `cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`,
			path: join(dir, "opencode.db", FIXTURE_SESSION),
		});
		const sub = index.search({ query: "CHILD count the llamas", role: ["user"] }).results[0];
		expect(sub).toMatchObject({
			sessionId: FIXTURE_CHILD,
			kind: "subagent",
			spawnedBySessionId: FIXTURE_SESSION,
			// A sub-agent's path lies under its parent's, as omp keeps a session's sub-agents.
			path: join(dir, "opencode.db", FIXTURE_SESSION, FIXTURE_CHILD),
			resumeHint: `cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`,
		});
		expect(sub.spawnedByEntryId).toMatch(/^prt_/);
		const structure = index.read(FIXTURE_SESSION, { structure: true }).structure;
		expect(structure?.subagents).toEqual([{ sessionId: FIXTURE_CHILD, name: FIXTURE_CHILD, entryId: sub.spawnedByEntryId }]);
		expect(index.search({ query: "narwhal" }).results[0]).toMatchObject({ role: "user", branchState: "active" });
		expect(index.search({ query: "SUMMARY OF EARLIER WORK", role: ["summary"] }).results[0].branchState).toBe("active");
		expect(index.search({ query: "wombat" }).results[0]).toMatchObject({ role: "user", branchState: "active" });
	});

	it("puts each answer's model, provider, tokens and cost where Pi writes them", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const source = fileSource([{ path: dir, layout: "opencode", agent: "opencode" }]);
		const entries = entriesOf(await source.readDocument!(join(dir, "opencode.db", FIXTURE_SESSION)));
		const answer = entries.find((e) => role(e) === "assistant")!.raw.message as Record<string, unknown>;
		expect(answer).toMatchObject({
			model: "m",
			provider: "fake",
			usage: { input: 60, output: 10, cacheRead: 40, cacheWrite: 0, totalTokens: 110 },
		});
		// OpenCode recorded 0 for the fake model, whose price it did not know: no cost, for the table to price.
		expect((answer.usage as Record<string, unknown>).cost).toBeUndefined();
		expect(["stop", "toolUse"]).toContain(answer.stopReason);
		// The compaction: a user message holding a compaction part, then the summary; the harness's "Continue" is meta.
		const types = entries.map((e) => e.type);
		expect(types).toContain("compaction");
		expect(types).toContain("branch_summary");
		expect(entries.some((e) => e.type === "custom_message" && String(e.raw.content).startsWith("Continue if you have next steps"))).toBe(
			true,
		);
	});

	it("reads an unchanged session no more, and a changed one again whole", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const { index, source } = await indexed(dir);
		expect(await index.sync(source)).toMatchObject({ unchanged: 2, filesParsed: 0, bytesRead: 0 });
		const db = await openForWrite(join(dir, "opencode.db"));
		addMessage(db, FIXTURE_SESSION, "msg_zz1", 1_796_200_000_000, { role: "user", time: { created: 1_796_200_000_000 } });
		addPart(db, FIXTURE_SESSION, "msg_zz1", "prt_zz1", { type: "text", text: "a later question about the axolotl" });
		const again = await index.sync(source);
		db.close();
		expect(again).toMatchObject({ rewritten: 1, unchanged: 1, filesParsed: 1 });
		expect(index.search({ query: "axolotl" }).results[0].sessionId).toBe(FIXTURE_SESSION);
	});
});

describe("rows the CLI did not write", () => {
	async function built() {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const db = await openForWrite(join(dir, "opencode.db"));
		const t = 1_796_300_000_000;
		addSession(db, {
			id: "ses_built1",
			title: "New session - 2026-12-01T10:00:00.000Z",
			version: "1.19.0",
			revert: { messageID: "msg_b5" },
		});
		addMessage(db, "ses_built1", "msg_b1", t, { role: "user", time: { created: t } });
		addPart(db, "ses_built1", "msg_b1", "prt_b1a", { type: "text", text: "describe the pangolin picture" });
		addPart(db, "ses_built1", "msg_b1", "prt_b1b", {
			type: "file",
			mime: "image/png",
			filename: "pangolin.png",
			url: `data:image/png;base64,${"QUJD".repeat(5000)}`,
		});
		addPart(db, "ses_built1", "msg_b1", "prt_b1c", { type: "text", text: "Called the Read tool with the harness note", synthetic: true });
		addPart(db, "ses_built1", "msg_b1", "prt_b1d", {
			type: "subtask",
			agent: "explore",
			description: "look for tapirs",
			prompt: "find tapir nests",
		});
		addPart(db, "ses_built1", "msg_b1", "prt_b1e", { type: "hologram", text: "a part type of a later OpenCode" });
		addPart(db, "ses_built1", "msg_b1", "prt_b1f", "{not json");
		addMessage(db, "ses_built1", "msg_b2", t + 1, {
			role: "assistant",
			parentID: "msg_b1",
			modelID: "big-model",
			providerID: "acme",
			cost: 0.25,
			tokens: { input: 1000, output: 200, reasoning: 50, cache: { read: 300, write: 20 } },
			time: { created: t + 1, completed: t + 2 },
			finish: "tool-calls",
		});
		addPart(db, "ses_built1", "msg_b2", "prt_b2a", { type: "reasoning", text: "secretthoughtsofthemodel" });
		addPart(db, "ses_built1", "msg_b2", "prt_b2b", { type: "text", text: "I will look at the kinkajou" });
		addPart(db, "ses_built1", "msg_b2", "prt_b2c", {
			type: "tool",
			tool: "bash",
			callID: "call_b1",
			state: { status: "error", input: { command: "ls /nowhere" }, error: "ls: cannot access quetzal: No such file" },
		});
		addPart(db, "ses_built1", "msg_b2", "prt_b2d", {
			type: "tool",
			tool: "read",
			callID: "call_b2",
			state: { status: "pending", input: { filePath: "/home/user/built/jaguarundi.ts" } },
		});
		addPart(db, "ses_built1", "msg_b2", "prt_b2e", {
			type: "tool",
			tool: "bash",
			callID: "call_b3",
			state: { status: "completed", input: { command: "cat big.log" }, output: `start ${"x".repeat(2_000_000)} margaywords` },
		});
		for (const type of ["step-start", "step-finish", "snapshot", "patch", "agent", "retry"])
			addPart(db, "ses_built1", "msg_b2", `prt_b2${type}`, { type });
		addMessage(db, "ses_built1", "msg_b3", t + 3, {
			role: "assistant",
			modelID: "big-model",
			providerID: "acme",
			error: { name: "APIError", data: { message: "rate limited by the civet provider" } },
			time: { created: t + 3 },
		});
		addMessage(db, "ses_built1", "msg_b4", t + 4, "{broken message");
		addMessage(db, "ses_built1", "msg_b4b", t + 4, { role: "system", time: { created: t + 4 } });
		addMessage(db, "ses_built1", "msg_b5", t + 5, { role: "user", time: { created: t + 5 } });
		addPart(db, "ses_built1", "msg_b5", "prt_b5", { type: "text", text: "a reverted question about the okapi" });
		addSession(db, { id: "ses_built2", title: "Named by hand", version: "1.19.0" });
		addMessage(db, "ses_built2", "msg_c1", t, { role: "user", time: { created: t } });
		addPart(db, "ses_built2", "msg_c1", "prt_c1", { type: "text", text: "second session of a newer OpenCode" });
		db.close();
		return dir;
	}

	it("indexes files by name, the harness's text as meta, errors, and never the model's reasoning", async () => {
		const dir = await built();
		const { index, report } = await indexed(dir);
		expect(report.malformedLines).toBe(2);
		expect(report.unknownRecords).toBe(2);
		// A newer version is read as far as it is understood and named once.
		expect(report.newVersions).toEqual(["OpenCode 1.19.0"]);
		expect(index.search({ query: "pangolin" }).results[0]).toMatchObject({ sessionId: "ses_built1", role: "user" });
		expect(index.search({ query: "harness note" }).results[0].role).toBe("meta");
		expect(index.search({ query: "tapir nests" }).results[0].role).toBe("meta");
		expect(index.search({ query: "secretthoughtsofthemodel" }).results).toEqual([]);
		expect(index.search({ query: "quetzal", role: ["tool"] }).results[0].sessionId).toBe("ses_built1");
		expect(index.search({ query: "jaguarundi", role: ["tool"] }).results[0].role).toBe("assistant");
		expect(index.search({ query: "civet provider" }).results[0].role).toBe("assistant");
		// A placeholder title is no title: the first prompt stands in.
		const row = index.browse({ agent: "opencode", scope: "all" }).find((s) => s.sessionId === "ses_built1");
		expect(row?.name).toBeUndefined();
		expect(index.browse({ agent: "opencode", scope: "all" }).find((s) => s.sessionId === "ses_built2")?.name).toBe("Named by hand");
	});

	it("leaves a revert OpenCode has not carried out on an abandoned branch", async () => {
		const dir = await built();
		const { index } = await indexed(dir);
		expect(index.search({ query: "okapi" }).results[0]).toMatchObject({ sessionId: "ses_built1", branchState: "abandoned" });
		expect(index.search({ query: "kinkajou" }).results[0].branchState).toBe("active");
	});

	it("renders an inlined image as its type only and cuts a string at 1 MiB; usage is Pi's", async () => {
		const dir = await built();
		const source = fileSource([{ path: dir, layout: "opencode", agent: "opencode" }]);
		const doc = await source.readDocument!(join(dir, "opencode.db", "ses_built1"));
		const text = new TextDecoder().decode(doc);
		expect(text).not.toContain("QUJDQUJD");
		expect(text).toContain('"url":"data:image/png"');
		expect(doc.length).toBeLessThan(1.2 * 1024 * 1024);
		expect(text).not.toContain("margaywords");
		const answer = entriesOf(doc).find((e) => role(e) === "assistant")!.raw.message as Record<string, unknown>;
		expect(answer).toMatchObject({
			model: "big-model",
			provider: "acme",
			stopReason: "toolUse",
			// OpenCode's output leaves the 50 reasoning tokens apart; Pi's counts them, as they are billed.
			usage: { input: 1000, output: 250, cacheRead: 300, cacheWrite: 20, totalTokens: 1570, cost: { total: 0.25 } },
		});
	});
});

describe("the JSON tree of OpenCode before 1.2.0", () => {
	it("reads the tree the real OpenCode 1.1.65 wrote: the tool's output, the project, compaction, the sub-agent's link", async () => {
		const dir = join(tempDir("opencode-data"), "opencode");
		cpSync(LEGACY_TREE, join(dir, "storage"), { recursive: true });
		const { index, report } = await indexed(dir);
		expect(report).toMatchObject({ added: 2, malformedLines: 0, unknownRecords: 0, newVersions: [], warnings: [] });
		const tool = index.search({ query: "ocelot42ridge", role: ["tool"] }).results[0];
		expect(tool).toMatchObject({
			sessionId: LEGACY_SESSION,
			agent: "opencode",
			cwd: FIXTURE_PROJECT,
			// 1.1.65 had not named it yet when the run ended: the first prompt stands in.
			firstPrompt: "Look around please. SHELL echo ocelot$((6*7))ridge",
			branchState: "compacted",
			resumeHint: `cd ${FIXTURE_PROJECT} && opencode -s ${LEGACY_SESSION}`,
			path: join(dir, "storage", "session", "global", `${LEGACY_SESSION}.json`),
		});
		const sub = index.search({ query: "CHILD count the llamas", role: ["user"] }).results[0];
		expect(sub).toMatchObject({ sessionId: LEGACY_CHILD, kind: "subagent", spawnedBySessionId: LEGACY_SESSION });
		// Its task call's output names it ("task_id: ses_…").
		expect(sub.spawnedByEntryId).toMatch(/^prt_/);
		expect(index.search({ query: "narwhal" }).results[0]).toMatchObject({ role: "user", branchState: "active" });
		expect(index.search({ query: "Continue if you have next steps" }).results[0].role).toBe("meta");
	});

	function tree(dir: string) {
		const storage = join(dir, "storage");
		const put = (path: string, value: unknown) => {
			mkdirSync(join(storage, path, ".."), { recursive: true });
			writeFileSync(join(storage, path), JSON.stringify(value));
		};
		const t = 1_760_000_000_000;
		put("session/abc123/ses_old1.json", {
			id: "ses_old1",
			projectID: "abc123",
			directory: "/home/user/old-app",
			title: "The gerenuk migration",
			version: "1.1.40",
			time: { created: t, updated: t + 9 },
		});
		put("session/abc123/ses_old2.json", {
			id: "ses_old2",
			projectID: "abc123",
			parentID: "ses_old1",
			directory: "/home/user/old-app",
			title: "Child session - 2025-10-09T10:00:00.000Z",
			version: "1.1.40",
			time: { created: t + 2, updated: t + 3 },
		});
		put("message/ses_old1/msg_o1.json", { id: "msg_o1", sessionID: "ses_old1", role: "user", time: { created: t } });
		put("part/msg_o1/prt_o1.json", {
			id: "prt_o1",
			sessionID: "ses_old1",
			messageID: "msg_o1",
			type: "text",
			text: "how do we migrate the gerenuk table",
		});
		put("message/ses_old1/msg_o2.json", {
			id: "msg_o2",
			sessionID: "ses_old1",
			role: "assistant",
			parentID: "msg_o1",
			modelID: "m",
			providerID: "p",
			time: { created: t + 1 },
		});
		put("part/msg_o2/prt_o2.json", {
			id: "prt_o2",
			sessionID: "ses_old1",
			messageID: "msg_o2",
			type: "tool",
			tool: "task",
			callID: "c1",
			state: { status: "completed", input: { prompt: "look" }, output: "task_id: ses_old2 done" },
		});
		put("message/ses_old2/msg_o3.json", { id: "msg_o3", sessionID: "ses_old2", role: "user", time: { created: t + 2 } });
		put("part/msg_o3/prt_o3.json", {
			id: "prt_o3",
			sessionID: "ses_old2",
			messageID: "msg_o3",
			type: "text",
			text: "the child looks for the dikdik",
		});
		// A session OpenCode 1.2 copied into its database: read from the database only.
		put(`session/global/${FIXTURE_SESSION}.json`, {
			id: FIXTURE_SESSION,
			directory: "/home/user/zebra-app",
			title: "copied",
			time: { created: t, updated: t },
		});
		put(`message/${FIXTURE_SESSION}/msg_x.json`, { id: "msg_x", sessionID: FIXTURE_SESSION, role: "user", time: { created: t } });
		put("part/msg_x/prt_x.json", {
			id: "prt_x",
			sessionID: FIXTURE_SESSION,
			messageID: "msg_x",
			type: "text",
			text: "only in the copied tree: springbok",
		});
		return storage;
	}

	it("reads its sessions and sub-agents, and leaves out those its database holds", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const storage = tree(dir);
		const { index, report, source } = await indexed(dir);
		expect(report).toMatchObject({ added: 4, malformedLines: 0, unknownRecords: 0, newVersions: [] });
		const old = index.search({ query: "gerenuk table" }).results[0];
		expect(old).toMatchObject({
			sessionId: "ses_old1",
			agent: "opencode",
			name: "The gerenuk migration",
			cwd: "/home/user/old-app",
			path: join(storage, "session", "abc123", "ses_old1.json"),
			resumeHint: "cd /home/user/old-app && opencode -s ses_old1",
		});
		const child = index.search({ query: "dikdik" }).results[0];
		expect(child).toMatchObject({ sessionId: "ses_old2", kind: "subagent", spawnedBySessionId: "ses_old1" });
		expect(child.spawnedByEntryId).toBe("prt_o2");
		expect(index.search({ query: "springbok" }).results).toEqual([]);
		// A message added to the tree reads the session again; the others are not read.
		writeFileSync(
			join(storage, "message", "ses_old1", "msg_o4.json"),
			JSON.stringify({ id: "msg_o4", sessionID: "ses_old1", role: "user", time: { created: 1_760_000_000_100 } }),
		);
		mkdirSync(join(storage, "part", "msg_o4"));
		writeFileSync(
			join(storage, "part", "msg_o4", "prt_o4.json"),
			JSON.stringify({ id: "prt_o4", type: "text", text: "and the sitatunga" }),
		);
		expect(await index.sync(source)).toMatchObject({ rewritten: 1, unchanged: 3 });
		expect(index.search({ query: "sitatunga" }).results[0].sessionId).toBe("ses_old1");
		// A message file cut short and a part file that is no object are counted and skipped; the rest is read.
		writeFileSync(join(storage, "message", "ses_old1", "msg_o5.json"), '{"id": "msg_o5", "role": "us');
		writeFileSync(join(storage, "part", "msg_o4", "prt_o5.json"), "[1, 2]");
		writeFileSync(join(storage, "session", "abc123", "ses_bad.json"), "not json");
		// A session file that is no JSON is named in the report as unreadable; the others are read.
		const r = await index.sync(source);
		expect(r).toMatchObject({ rewritten: 1, malformedLines: 2, skipped: { unreadable: 1 } });
		expect(r.skippedFiles).toEqual([
			expect.objectContaining({ path: join(storage, "session", "abc123", "ses_bad.json"), reason: "unreadable" }),
		]);
		expect(index.search({ query: "sitatunga" }).results[0].sessionId).toBe("ses_old1");
		expect(index.search({ query: "gerenuk table" }).results[0].sessionId).toBe("ses_old1");
	});
});

describe("a database OpenCode is writing", () => {
	it("finds a commit that is only in the WAL, which the main file alone misses, and creates nothing beside it", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const path = join(dir, "opencode.db");
		const db = await openForWrite(path);
		addSession(db, { id: "ses_walonly", title: "Only in the WAL" });
		addMessage(db, "ses_walonly", "msg_w1", 1_796_400_000_000, { role: "user", time: { created: 1_796_400_000_000 } });
		addPart(db, "ses_walonly", "msg_w1", "prt_w1", { type: "text", text: "the serval hides in the WAL" });
		expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
		const names = readdirSync(dir).sort();
		const before = names.map((n) => statSync(join(dir, n)).mtimeMs);
		// The main file alone: no such session.
		const main = new Uint8Array(readFileSync(path));
		main[18] = 1;
		main[19] = 1;
		const engine = await loadEngine();
		const alone = new engine.Database(main);
		expect(alone.exec("SELECT count(*) FROM session WHERE id = 'ses_walonly'")[0].values[0][0]).toBe(0);
		alone.close();
		const { index } = await indexed(dir);
		expect(index.search({ query: "serval" }).results[0]).toMatchObject({ sessionId: "ses_walonly", name: "Only in the WAL" });
		expect(readdirSync(dir).sort()).toEqual(names);
		expect(names.map((n) => statSync(join(dir, n)).mtimeMs)).toEqual(before);
		db.close();
	});

	it("stops at the last commit frame whose salts and checksum hold: a torn or uncommitted frame is not read", async () => {
		const dir = tempDir("wal");
		const path = join(dir, "t.db");
		const db = await openForWrite(path);
		db.run("CREATE TABLE t(x)");
		for (let i = 0; i < 3; i++) db.run("INSERT INTO t VALUES (?)", [i]);
		const copy = () => {
			const to = join(tempDir("wal-copy"), "t.db");
			copyFileSync(path, to);
			copyFileSync(`${path}-wal`, `${to}-wal`);
			return to;
		};
		const rows = async (at: string) => {
			const snap = WalSnapshot.take(at);
			const image = new Uint8Array(snap.size);
			snap.read(image, 0, snap.size, 0);
			snap.close();
			const engine = await loadEngine();
			const d = new engine.Database(image);
			try {
				return Number(d.exec("SELECT count(*) FROM t")[0].values[0][0]);
			} finally {
				d.close();
			}
		};
		expect(await rows(copy())).toBe(3);
		// The last frame's page torn: its commit is not read, the ones before are.
		const torn = copy();
		const wal = new Uint8Array(readFileSync(`${torn}-wal`));
		wal[wal.length - 100] ^= 0xff;
		writeFileSync(`${torn}-wal`, wal);
		expect(await rows(torn)).toBe(2);
		// A half-written last frame: the same.
		const cut = copy();
		writeFileSync(`${cut}-wal`, readFileSync(`${cut}-wal`).subarray(0, wal.length - 50));
		expect(await rows(cut)).toBe(2);
		// Frames of a transaction not yet committed are not read.
		db.run("BEGIN");
		db.run("INSERT INTO t VALUES (99)");
		db.exec("SELECT 1");
		expect(await rows(copy())).toBe(3);
		db.run("COMMIT");
		db.close();
	});

	it("reads safely while another process commits and checkpoints: every snapshot whole, none refused", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const path = join(dir, "opencode.db");
		const setup = await openForWrite(path);
		addSession(setup, { id: "ses_writer", title: "Written while read" });
		setup.close();
		const commits = 150;
		const writer = spawn(process.execPath, [WRITER, path, "ses_writer", String(commits)], { stdio: ["ignore", "pipe", "pipe"] });
		let out = "";
		let err = "";
		writer.stdout.on("data", (d) => (out += d));
		writer.stderr.on("data", (d) => (err += d));
		const exited = new Promise<number | null>((resolve) => writer.on("close", resolve));
		let done = false;
		void exited.then(() => (done = true));
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		const source = fileSource([{ path: dir, layout: "opencode", agent: "opencode" }]);
		const virtual = join(dir, "opencode.db", "ses_writer");
		let reads = 0;
		let largest = 0;
		const seen = new Set<number>();
		while (!done) {
			const report = await index.sync(source);
			expect(report.warnings).toEqual([]);
			expect(report.skippedFiles).toEqual([]);
			const texts = entriesOf(await source.readDocument!(virtual))
				.filter((e) => role(e) === "user")
				.map((e) => String((e.raw.message as { content: { text: string }[] }).content[0].text).split(" ")[0]);
			// Every commit is whole: messages 0..n-1, each with its part, none missing in between.
			expect(texts).toEqual(texts.map((_, i) => `beaver${i}`));
			largest = Math.max(largest, texts.length);
			seen.add(texts.length);
			reads++;
			// Every read above is synchronous: let the writer's exit be heard.
			await new Promise((resolve) => setTimeout(resolve, 1));
		}
		expect(await exited, err).toBe(0);
		expect(out).toContain("done");
		expect(reads).toBeGreaterThan(1);
		const last = await index.sync(source);
		expect(last.warnings).toEqual([]);
		expect(index.search({ query: `beaver${commits - 1}` }).results[0].sessionId).toBe("ses_writer");
		expect(readWhole(index, virtual).total).toBe(commits);
		expect(largest).toBeLessThanOrEqual(commits);
		// The reads ran between the writer's commits: they saw the session at several sizes.
		expect(seen.size).toBeGreaterThan(1);
	}, 120_000);
});

describe("where OpenCode's store is found", () => {
	it("names a file that is no database in the report, reads the others, and purges nothing of that folder", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		const { index, source } = await indexed(dir);
		writeFileSync(join(dir, "opencode-broken.db"), "no SQLite header here ".repeat(20));
		// One OpenCode has only just created holds nothing: no warning.
		writeFileSync(join(dir, "opencode-new.db"), "");
		const report = await index.sync(source);
		expect(report.warnings).toEqual([
			expect.objectContaining({ kind: "incomplete-walk", message: expect.stringContaining("opencode-broken.db is not a SQLite database") }),
		]);
		expect(report).toMatchObject({ unchanged: 2, purged: 0 });
		expect(index.search({ query: "ocelot42ridge", role: ["tool"] }).results[0].sessionId).toBe(FIXTURE_SESSION);
	});

	it("takes the data folder from XDG_DATA_HOME, and a database OPENCODE_DB names", () => {
		const roots = (env: Record<string, string>) =>
			piSessionRoots({ agentDir: "/a", env: { HOME: "/home/u", ...env } })
				.filter((r) => r.agent === "opencode")
				.map((r) => r.path);
		expect(roots({})).toEqual(["/home/u/.local/share/opencode"]);
		expect(roots({ XDG_DATA_HOME: "/x" })).toEqual(["/x/opencode"]);
		expect(roots({ OPENCODE_DB: "/elsewhere/my.db" })).toEqual(["/home/u/.local/share/opencode", "/elsewhere/my.db"]);
		expect(roots({ OPENCODE_DB: "work.db" })).toEqual(["/home/u/.local/share/opencode", "/home/u/.local/share/opencode/work.db"]);
		// Already one of the data folder's own databases, or none at all.
		expect(roots({ OPENCODE_DB: "opencode.db" })).toEqual(["/home/u/.local/share/opencode"]);
		expect(roots({ OPENCODE_DB: ":memory:" })).toEqual(["/home/u/.local/share/opencode"]);
		expect(roots({ LOOKBACK_SKIP_AGENTS: "opencode" })).toEqual([]);
	});

	it("reads a channel build's database beside the release's, and a session named by its path", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		copyFileSync(join(dir, "opencode.db"), join(dir, "opencode-dev.db"));
		writeFileSync(join(dir, "notes.db"), "not OpenCode's");
		const { index, report } = await indexed(dir);
		expect(report.added).toBe(4);
		const paths = index.search({ query: "ocelot42ridge", role: ["tool"] }).results.map((h) => h.path);
		expect(paths.sort()).toEqual([join(dir, "opencode-dev.db", FIXTURE_SESSION), join(dir, "opencode.db", FIXTURE_SESSION)]);
		expect(sessionPathInRoots(join(dir, "opencode.db", FIXTURE_SESSION), [dir])).toBe(join(dir, "opencode.db", FIXTURE_SESSION));
		expect(() => sessionPathInRoots(join(dir, "notes.db", "../opencode.db"), [tempDir("elsewhere")])).toThrow(/refusing/);
	});
});
