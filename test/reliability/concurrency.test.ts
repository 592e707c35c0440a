/** Several processes syncing and saving one index file at once; processes killed in the middle of a save. */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { tempDir } from "../helpers.js";

const WRITER = join(import.meta.dirname, "index-writer.mjs");

function writer(indexPath: string, sessions: string, name: string, rounds: number) {
	const child = spawn(process.execPath, [WRITER, indexPath, sessions, name, String(rounds)], { stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	let err = "";
	child.stdout.on("data", (c) => (out += c));
	child.stderr.on("data", (c) => (err += c));
	const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
		child.on("exit", (code, signal) => resolve({ code, signal, out, err })),
	);
	return { child, done, rounds: () => out.trim().split("\n").filter(Boolean).length };
}

async function openQuiet(indexPath: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
	return index;
}

describe("one index, several processes", () => {
	it("four processes syncing and saving at once lose nothing and never corrupt the file", async () => {
		const root = tempDir("concurrent");
		const sessions = join(root, "sessions");
		const indexPath = join(root, "index.db");
		mkdirSync(sessions);
		const rounds = 4;
		const runs = ["a", "b", "c", "d"].map((n) => writer(indexPath, sessions, n, rounds));
		const results = await Promise.all(runs.map((r) => r.done));
		for (const r of results) expect(r.code, r.err).toBe(0);
		const index = await openQuiet(indexPath);
		// Nothing synced here: every session some process saved must be in the file as the last save left it.
		for (const n of ["a", "b", "c", "d"]) {
			for (let r = 0; r < rounds; r++) expect(index.search({ query: `marker${n}x${r}` }).results, `${n}${r}`).toHaveLength(1);
		}
		expect(index.stats().sessions).toBe(16);
		expect(index.stats().generation).toBeGreaterThanOrEqual(16);
		index.close();
	});

	it("a process killed at any point of a save leaves the old or the new index, and its leftovers are cleaned", async () => {
		const root = tempDir("crash");
		const sessions = join(root, "sessions");
		const indexPath = join(root, "index.db");
		mkdirSync(sessions);
		let seed = 12345;
		const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		for (let i = 0; i < 6; i++) {
			const run = writer(indexPath, sessions, `k${i}`, 0);
			for (let t = 0; run.rounds() < 1; t++) {
				if (t > 1500) throw new Error(`writer ${i} made no round: ${JSON.stringify(await Promise.race([run.done, Promise.resolve("running")]))}`);
				await new Promise((r) => setTimeout(r, 20));
			}
			await new Promise((r) => setTimeout(r, 20 + random() * 300));
			run.child.kill("SIGKILL");
			const exit = await run.done;
			expect(exit.signal).toBe("SIGKILL");
			const index = await openQuiet(indexPath);
			const report = await index.sync({ describe: () => "none", roots: () => [], walk: async () => ({ files: [], skipped: [], completeRoots: [], warnings: [] }), read: async () => new Uint8Array() });
			expect(report.warnings.filter((w) => w.kind === "index-rebuilt")).toEqual([]);
			expect(index.stats().sessions).toBeGreaterThan(0);
			index.close();
			expect(readdirSync(root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
		}
	});

	it("recovers a lock left by a dead process, also one killed before it wrote its pid", async () => {
		const root = tempDir("lock");
		const indexPath = join(root, "index.db");
		writeFileSync(`${indexPath}.lock`, `999999999 ${Date.now()}\n`);
		const storage = fileStorage(indexPath);
		await storage.load();
		await storage.save(new Uint8Array([1, 2, 3]));
		expect(existsSync(`${indexPath}.lock`)).toBe(false);
		writeFileSync(`${indexPath}.lock`, "");
		utimesSync(`${indexPath}.lock`, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
		await storage.save(new Uint8Array([4]));
		expect(existsSync(`${indexPath}.lock`)).toBe(false);
	});

	it("refuses to replace an index another process saved since it was loaded", async () => {
		const root = tempDir("conflict");
		const indexPath = join(root, "index.db");
		const a = fileStorage(indexPath);
		const b = fileStorage(indexPath);
		await a.load();
		await b.load();
		await a.save(new Uint8Array([1]));
		await expect(b.save(new Uint8Array([2]))).rejects.toThrow(/another process saved/);
	});
});
