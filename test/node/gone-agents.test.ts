/**
 * Gone, not forgotten, for each agent's files: omp's session with its sub-agent and its title slot, a Claude Code
 * session with its sub-agent transcript, a Codex rollout compressed with zstd (archived as it is). Each is deleted,
 * found and read in full after a sync, marked gone, and restored byte for byte where its agent looks for it.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { restoreIndexed } from "../../src/node/restore.js";
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
});
