/**
 * Gone, not forgotten, for each agent's files: omp's session with its sub-agent and its title slot, a Claude Code
 * session with its sub-agent transcript, a Codex rollout compressed with zstd (archived as it is). Each is deleted,
 * found and read in full after a sync, marked gone, and restored byte for byte where its agent looks for it. An
 * OpenCode session deleted from its database is restored as files the real `opencode import` loads.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it, onTestFinished } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { restoreIndexed } from "../../src/node/restore.js";
import { addMessage, addPart, FIXTURE_CHILD, FIXTURE_SESSION, fixtureDataDir, openForWrite } from "../agents/opencode-rows.js";
import { opencodeBin, startOpencode } from "../agents/opencode-run.js";
import { tempDir } from "../helpers.js";
import { ompStore, PARENT } from "../omp/omp-store.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

function filesUnder(dir: string): Map<string, Buffer> {
	const out = new Map<string, Buffer>();
	for (const name of readdirSync(dir, { recursive: true }).map(String)) {
		const path = join(dir, name);
		if (statSync(path).isFile()) out.set(path, readFileSync(path));
	}
	return out;
}

describe("gone sessions of every agent", () => {
	it("omp: a deleted session and its sub-agent stay found and linked; gc's move leaves the live copy alone", async () => {
		const store = ompStore();
		const opened = await openNodeIndex({ agentDir: join(store.home, ".pi", "agent"), env: { HOME: store.home } });
		const { index, source } = opened;
		await index.sync(source);
		const before = filesUnder(dirname(store.parentFile));
		const full = index.read(PARENT);
		rmSync(dirname(store.parentFile), { recursive: true });
		const sync = await index.sync(source);
		expect(sync).toMatchObject({ gone: 2, purged: 0 });
		const sub = index.search({ query: "pelican formatter" }).results[0];
		expect(sub).toMatchObject({ kind: "subagent", spawnedBySessionId: PARENT, spawnedByEntryId: "0000000a", source: "gone" });
		expect(index.read(PARENT, { structure: true }).structure?.subagents.map((s) => s.name)).toEqual(["explore-1"]);
		expect(index.read(PARENT).messages).toEqual(full.messages);
		expect(index.session(PARENT).name).toBe("Cart rounding bug");
		expect(index.search({ query: "bankers rounding" }).results[0].resumeHint).toBe(`lookback restore ${PARENT} && omp --resume ${PARENT}`);

		const reply = restoreIndexed(opened, PARENT);
		expect(reply.files.map((f) => f.outcome)).toEqual(["written", "written"]);
		for (const [path, bytes] of before) expect(readFileSync(path).equals(bytes), path).toBe(true);
		expect(await index.sync(source)).toMatchObject({ returned: 2, rewritten: 0, added: 0 });

		// omp's gc moves the file into its archive folder, gzipped: one session, the live copy.
		const moved = join(store.agent, "archive", "sessions", "2026-11", `${store.parentFile.split("/").pop()}.gz`);
		mkdirSync(dirname(moved), { recursive: true });
		writeFileSync(moved, gzipSync(readFileSync(store.parentFile)));
		rmSync(store.parentFile);
		await index.sync(source);
		const hits = index.search({ query: "bankers rounding" }).results;
		expect(hits).toHaveLength(1);
		expect(hits[0]).toMatchObject({ path: moved, kind: "archived" });
		expect(hits[0].source).toBeUndefined();
	});

	it("Claude Code: a deleted session and its sub-agent's transcript, found, read, restored byte for byte", async () => {
		const home = tempDir("claude-home");
		const config = join(home, ".claude");
		cpSync(join(FIXTURES, "claude"), config, { recursive: true });
		const opened = await openNodeIndex({ agentDir: join(home, ".pi", "agent"), env: { HOME: home } });
		const { index, source } = opened;
		await index.sync(source);
		const project = join(config, "projects", "-home-user-zebra-app");
		const id = "803bb4c1-76e6-4594-9fb6-45953cf58af7";
		const before = new Map([...filesUnder(project)].filter(([p]) => p.includes(id) && p.endsWith(".jsonl")));
		const full = index.read(id);
		rmSync(join(project, `${id}.jsonl`));
		rmSync(join(project, id), { recursive: true });
		expect(await index.sync(source)).toMatchObject({ gone: 2, purged: 0 });
		const top = index.search({ query: "notes", agent: "claude", gone: "only", scope: "top" }).results[0];
		expect(top).toMatchObject({
			sessionId: id,
			source: "gone",
			resumeHint: `lookback restore ${id} && cd /home/user/zebra-app && claude -r ${id}`,
		});
		expect(index.read(id).messages).toEqual(full.messages);
		expect(
			index
				.browse({ scope: "all", gone: "only" })
				.map((s) => s.kind)
				.sort(),
		).toEqual(["session", "subagent"]);

		const reply = restoreIndexed(opened, id);
		expect(reply.files).toHaveLength(2);
		for (const [path, bytes] of before) expect(readFileSync(path).equals(bytes), path).toBe(true);
		expect(await index.sync(source)).toMatchObject({ returned: 2 });
		expect(index.browse({ scope: "all", gone: "only" })).toEqual([]);
	});

	it("Codex: a zstd rollout is kept as it is, found when gone, and restored byte for byte", async () => {
		const home = tempDir("codex-home");
		const codex = join(home, ".codex");
		cpSync(join(FIXTURES, "codex-compressed"), codex, { recursive: true });
		const opened = await openNodeIndex({ agentDir: join(home, ".pi", "agent"), env: { HOME: home } });
		const { index, source, archive } = opened;
		await index.sync(source);
		const [path, bytes] = [...filesUnder(join(codex, "sessions"))][0];
		// Compressed already: the copy is the file's own bytes, not compressed again.
		expect(archive.manifest.records.get(path)).toMatchObject({ codec: "raw", dataSize: bytes.length });
		const hit = index.search({ query: "narwhal", agent: "codex" }).results[0] ?? index.browse({ agent: "codex" })[0];
		const id = hit.sessionId;
		const full = index.read(id);
		rmSync(path);
		expect(await index.sync(source)).toMatchObject({ gone: 1 });
		expect(index.read(id)).toMatchObject({ messages: full.messages, session: { source: "gone" } });
		restoreIndexed(opened, id);
		expect(readFileSync(path).equals(bytes)).toBe(true);
		// Its old modification time, to the millisecond (a stat's mtimeMs is a float of seconds and nanoseconds: 621.999 for 622).
		expect(Math.round(statSync(path).mtimeMs)).toBe(Math.round(archive.manifest.records.get(path)?.mtimeMs ?? 0));
	});

	it("OpenCode: a session deleted from its database, restored for `opencode import` without its bad rows, what it lacks said", async () => {
		const home = tempDir("opencode-home");
		const data = join(home, "data");
		const db = join(fixtureDataDir(data), "opencode.db");
		// The fixture's session with what lookback does not keep whole (an inlined image, a tool's output over 1 MiB) and rows that are no JSON.
		const writer = await openForWrite(db);
		writer.run(
			"UPDATE part SET data = json_set(data, '$.state.output', ?) WHERE session_id = ? AND json_extract(data, '$.tool') = 'bash'",
			[`start ${"x".repeat(2_000_000)} margaywords`, FIXTURE_SESSION],
		);
		const first = String(
			writer.exec("SELECT id FROM message WHERE session_id = ? ORDER BY time_created LIMIT 1", [FIXTURE_SESSION])[0].values[0][0],
		);
		addPart(writer, FIXTURE_SESSION, first, "prt_zzimage", {
			type: "file",
			mime: "image/png",
			filename: "p.png",
			url: `data:image/png;base64,${"QUJD".repeat(500)}`,
		});
		addPart(writer, FIXTURE_SESSION, first, "prt_zzbad", "{not json");
		addMessage(writer, FIXTURE_SESSION, "msg_zzbad", 1_796_164_428_300, "{broken message");
		writer.close();
		const opened = await openNodeIndex({ agentDir: join(home, ".pi", "agent"), env: { HOME: home, XDG_DATA_HOME: data } });
		const { index, source } = opened;
		await index.sync(source);
		const full = index.read(FIXTURE_SESSION);
		const deleting = await openForWrite(db);
		for (const id of [FIXTURE_CHILD, FIXTURE_SESSION])
			for (const table of ["part", "message", "session"])
				deleting.run(`DELETE FROM ${table} WHERE ${table === "session" ? "id" : "session_id"} = ?`, [id]);
		deleting.close();
		expect(await index.sync(source)).toMatchObject({ gone: 2, purged: 0 });
		expect(index.read(FIXTURE_SESSION)).toMatchObject({ messages: full.messages, session: { source: "gone" } });

		const reply = restoreIndexed(opened, FIXTURE_SESSION);
		onTestFinished(() => rmSync(dirname(reply.files[0].path), { recursive: true, force: true }));
		expect(reply.files.map((f) => f.outcome)).toEqual(["written", "written"]);
		expect(reply.load?.lost).toEqual({ files: 1, cutTexts: 1 });
		const doc = JSON.parse(readFileSync(reply.files[0].path, "utf8")) as { messages: { info: unknown; parts: unknown[] }[] };
		const kept = JSON.parse(Buffer.from(await opened.archive.read(join(db, FIXTURE_SESSION), 0, Number.MAX_SAFE_INTEGER)).toString("utf8"));
		// The archive's copy holds the bad rows as null, in their places; the file for `opencode import` leaves them out.
		expect(doc.messages.length).toBe(kept.messages.length - 1);
		expect(doc.messages.every((m) => m.info !== null && m.parts.every((p) => p !== null))).toBe(true);
		expect(kept.messages.flatMap((m: { parts: unknown[] }) => m.parts).filter((p: unknown) => p === null)).toHaveLength(1);
		expect(index.read(FIXTURE_SESSION).session.source).toBe("gone");

		if (!opencodeBin()) return;
		const project = realpathSync(tempDir("opencode-project"));
		for (const f of reply.files) {
			const imported = await startOpencode(["import", f.path], { cwd: project, home });
			expect(imported.code, imported.stderr).toBe(0);
		}
		// Back in OpenCode's database, every message and part as the file had it (OpenCode's export of a 2 MB session
		// is cut short when its stdout is a pipe: the rows are read as lookback reads them), and live again.
		const back = JSON.parse(Buffer.from(await source.readDocument!(join(db, FIXTURE_SESSION))).toString("utf8"));
		expect(back.messages).toEqual(doc.messages);
		expect(back.info).toMatchObject({ id: FIXTURE_SESSION, directory: project });
		expect(await index.sync(source)).toMatchObject({ returned: 2 });
		expect(index.read(FIXTURE_SESSION).session.source).toBeUndefined();
	}, 120_000);
});
