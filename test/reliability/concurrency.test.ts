/** Several processes on one index opened in place; processes killed or frozen in the middle of a commit. */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LookbackIndex } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { lockWaits } from "../../src/node/engine-locks.js";
import { fileSource } from "../../src/node/file-source.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { tempDir } from "../helpers.js";

const WRITER = join(import.meta.dirname, "index-writer.mjs");
const waits = { ...lockWaits };
afterEach(() => Object.assign(lockWaits, waits));

function writer(indexPath: string, sessions: string, name: string, rounds: number, sessionsPerRound = 1) {
	const child = spawn(process.execPath, [WRITER, indexPath, sessions, name, String(rounds), String(sessionsPerRound)], {
		stdio: ["ignore", "pipe", "pipe"],
	});
	let out = "";
	let err = "";
	child.stdout.on("data", (c) => (out += c));
	child.stderr.on("data", (c) => (err += c));
	const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
		child.on("exit", (code, signal) => resolve({ code, signal, out, err })),
	);
	return { child, done, rounds: () => out.trim().split("\n").filter(Boolean).length };
}

async function open(indexPath: string) {
	return LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
}

const nothing = {
	describe: () => "none",
	roots: () => [],
	walk: async () => ({ files: [], skipped: [], completeRoots: [], warnings: [] }),
	read: async () => new Uint8Array(),
};

const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/**
 * Whether a journal that SQLite would roll back lies beside the index. A journal whose header is still
 * zero (a commit killed before its journal was complete, the index not yet touched) is ignored by SQLite.
 */
function hotJournal(indexPath: string): boolean {
	try {
		return readFileSync(`${indexPath}-journal`).subarray(0, 8).equals(JOURNAL_MAGIC);
	} catch {
		return false;
	}
}

const midCommit = (indexPath: string) => hotJournal(indexPath) && existsSync(`${indexPath}.locks/pending`);

/**
 * A writer with a big batch, frozen (SIGSTOP) the moment its commit has a complete journal and is writing the
 * index; with the sessions the index held before it. The commit's window is short and polling can miss it on a
 * loaded machine: a writer that was stopped just after it, or that finished unseen, is let go and another tried.
 */
async function writerFrozenMidCommit(indexPath: string, sessions: string) {
	for (let attempt = 0; attempt < 5; attempt++) {
		const before = await open(indexPath);
		const sessionsBefore = before.stats().sessions;
		before.close();
		const run = writer(indexPath, sessions, `big${attempt}`, 1, 400);
		const deadline = Date.now() + 15_000;
		let yielded = Date.now();
		while (run.child.exitCode === null && Date.now() < deadline) {
			// A moment for the event loop now and then, or the writer's exit is never noticed.
			if (Date.now() - yielded > 50) {
				await new Promise((resolve) => setImmediate(resolve));
				yielded = Date.now();
			}
			if (!midCommit(indexPath)) continue;
			run.child.kill("SIGSTOP");
			if (midCommit(indexPath)) return { run, sessionsBefore };
			run.child.kill("SIGCONT");
		}
		run.child.kill("SIGKILL");
		await run.done;
	}
	throw new Error("never caught the writer mid-commit in five tries");
}

function integrity(index: LookbackIndex): unknown[] {
	return index.reading((db) => db.exec("PRAGMA integrity_check")[0].values.flat());
}

describe("one index, several processes", () => {
	it("four processes syncing at once lose nothing and never corrupt the file", async () => {
		const root = tempDir("concurrent");
		const sessions = join(root, "sessions");
		const indexPath = join(root, "index.db");
		mkdirSync(sessions);
		const rounds = 4;
		const runs = ["a", "b", "c", "d"].map((n) => writer(indexPath, sessions, n, rounds));
		const results = await Promise.all(runs.map((r) => r.done));
		for (const r of results) expect(r.code, r.err).toBe(0);
		const index = await open(indexPath);
		// Nothing synced here: every session some process committed must be in the file.
		for (const n of ["a", "b", "c", "d"]) {
			for (let r = 0; r < rounds; r++) expect(index.search({ query: `marker${n}x${r}` }).results, `${n}${r}`).toHaveLength(1);
		}
		expect(index.stats().sessions).toBe(16);
		expect(integrity(index)).toEqual(["ok"]);
		index.close();
	});

	it("a process killed at any point of a sync leaves an index the next process opens, rolls back if needed and uses", async () => {
		const root = tempDir("crash");
		const sessions = join(root, "sessions");
		const indexPath = join(root, "index.db");
		mkdirSync(sessions);
		let seed = 12345;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		for (let i = 0; i < 6; i++) {
			const run = writer(indexPath, sessions, `k${i}`, 0, 20);
			for (let t = 0; run.rounds() < 1; t++) {
				if (t > 1500)
					throw new Error(`writer ${i} made no round: ${JSON.stringify(await Promise.race([run.done, Promise.resolve("running")]))}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			await new Promise((r) => setTimeout(r, 20 + random() * 300));
			run.child.kill("SIGKILL");
			const exit = await run.done;
			expect(exit.signal).toBe("SIGKILL");
			const index = await open(indexPath);
			const report = await index.sync(nothing);
			expect(report.warnings.filter((w) => w.kind === "index-rebuilt")).toEqual([]);
			expect(index.stats().sessions).toBeGreaterThan(0);
			expect(integrity(index)).toEqual(["ok"]);
			index.close();
			expect(hotJournal(indexPath)).toBe(false);
		}
	});

	it("takes over the locks of a dead process", async () => {
		const root = tempDir("stale");
		const indexPath = join(root, "index.db");
		(await open(indexPath)).close();
		const dead = "999999999 12345 deadbeef -";
		mkdirSync(`${indexPath}.locks/shared`, { recursive: true });
		for (const name of ["reserved", "pending"]) writeFileSync(`${indexPath}.locks/${name}`, dead);
		writeFileSync(`${indexPath}.locks/shared/999999999.12345.deadbeef.-`, "");
		lockWaits.readMs = 2_000;
		const index = await open(indexPath);
		const sessions = join(root, "sessions", "--p--");
		mkdirSync(sessions, { recursive: true });
		writeFileSync(
			join(sessions, "2026-11-30T00-00-00-000Z_s1.jsonl"),
			`${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-11-30T00:00:00Z", cwd: "/p" })}\n`,
		);
		const report = await index.sync(fileSource([{ path: join(root, "sessions"), layout: "nested" }]));
		expect(report.added).toBe(1);
		expect(readdirSync(`${indexPath}.locks`).sort()).toEqual(["shared"]);
		expect(readdirSync(`${indexPath}.locks/shared`)).toEqual([]);
		index.close();
	});

	it("a reader never rolls back the journal of a live writer frozen mid-commit; once the writer is dead it does", async () => {
		const root = tempDir("frozen");
		const sessions = join(root, "sessions");
		const indexPath = join(root, "index.db");
		mkdirSync(sessions);
		const seedRun = writer(indexPath, sessions, "seed", 1, 5);
		expect((await seedRun.done).code).toBe(0);
		const { run, sessionsBefore } = await writerFrozenMidCommit(indexPath, sessions);
		try {
			lockWaits.readMs = 300;
			await expect(open(indexPath)).rejects.toThrow(/index is busy/);
			expect(hotJournal(indexPath)).toBe(true);
		} finally {
			run.child.kill("SIGKILL");
			await run.done;
		}
		const after = await open(indexPath);
		expect(after.stats().sessions).toBe(sessionsBefore);
		expect(integrity(after)).toEqual(["ok"]);
		expect(hotJournal(indexPath)).toBe(false);
		after.close();
	});
});

describe("modules loaded again in the same process (Pi loads an extension anew for every session)", () => {
	it("keep one engine, one lock registry and the lock hook", async () => {
		const first = await import("../../src/node/engine.js");
		const engine = await first.loadEngine();
		vi.resetModules();
		const again = await import("../../src/node/engine.js");
		expect(again).not.toBe(first);
		expect(await again.loadEngine()).toBe(engine);
		expect(again.lockRegistry).toBe(first.lockRegistry);

		// A live other process about to commit: a read through the reloaded modules must wait for it, not go ahead.
		const root = tempDir("reload");
		const indexPath = join(root, "index.db");
		(await open(indexPath)).close();
		const sleeper = spawn("sleep", ["30"]);
		try {
			const stat = readFileSync(`/proc/${sleeper.pid}/stat`, "utf8");
			const start = stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[19];
			const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim().slice(0, 8);
			writeFileSync(`${indexPath}.locks/pending`, `${sleeper.pid} ${start} feedface ${boot}`);
			const { fileStorage: reloadedStorage } = await import("../../src/node/file-storage.js");
			const { LookbackIndex: ReloadedIndex } = await import("../../src/core/index.js");
			const { lockWaits: reloadedWaits } = await import("../../src/node/engine-locks.js");
			reloadedWaits.readMs = 300;
			lockWaits.readMs = 300;
			await expect(ReloadedIndex.open({ sql: engine, storage: reloadedStorage(indexPath) })).rejects.toThrow(/index is busy/);
		} finally {
			sleeper.kill("SIGKILL");
		}
	});
});
