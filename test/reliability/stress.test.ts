/**
 * The lock protocol under fire: one writer SIGKILLed at random points again and again, three readers
 * (SIGKILLed now and then too) checking every view they get. Nothing may fail with a corruption error,
 * no view may be torn or go back in time, nothing committed may be lost, and the file must pass
 * `PRAGMA integrity_check` at the end. Where Node 22 and Bun are present, the writer runs in turn on the wasm
 * engine, node:sqlite and bun:sqlite, and the readers are one of each. LOOKBACK_STRESS_SECONDS sets the
 * length (default 60).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileStorage } from "../../src/node/file-storage.js";
import { BUN, NODE22 } from "../agents.js";
import { tempDir } from "../helpers.js";

const WORKER = join(import.meta.dirname, "stress-worker.mjs");
const SECONDS = Number(process.env.LOOKBACK_STRESS_SECONDS ?? 60);
const RUNTIMES = [
	{ exe: process.execPath, engine: "wasm" },
	...(NODE22 ? [{ exe: NODE22, engine: "node:sqlite" }] : []),
	...(BUN ? [{ exe: BUN, engine: "bun:sqlite" }] : []),
];

describe("readers and a writer killed mid-commit, for a minute", () => {
	it(
		"never corrupt, tear, lose or go back",
		async () => {
			const work = tempDir("stress");
			const sessions = join(work, "sessions");
			const indexPath = join(work, "index.db");
			mkdirSync(sessions);
			const procs = new Map<string, ChildProcess>();
			let stopping = false;
			let writerStarts = 0;
			const start = (name: string) => {
				const args = name === "writer" ? ["writer", indexPath, sessions, work] : ["reader", indexPath, sessions, work, String(SECONDS + 5)];
				const runtime =
					name === "writer" ? RUNTIMES[writerStarts++ % RUNTIMES.length] : RUNTIMES[(Number(name.slice(1)) - 1) % RUNTIMES.length];
				runtimesUsed.add(`${name === "writer" ? "writer" : "reader"} ${runtime.engine}`);
				const child = spawn(runtime.exe, [WORKER, ...args], {
					stdio: ["ignore", "ignore", "pipe"],
					env: { ...process.env, LOOKBACK_ENGINE: runtime.engine === "wasm" ? "wasm" : "builtin" },
				});
				let err = "";
				child.stderr!.on("data", (c) => (err += c));
				child.on("exit", (code, signal) => {
					// An uncaught error thrown inside the engine prints its (minified, very long) source line first: keep the end too.
					if (err.trim() && signal !== "SIGKILL")
						errors.push(`${name} exited ${code}: ${err.length > 1000 ? `${err.slice(0, 300)} … ${err.slice(-700)}` : err}`);
					if (procs.get(name) === child && !stopping && (name === "writer" || signal === "SIGKILL")) start(name);
				});
				procs.set(name, child);
			};
			const errors: string[] = [];
			const runtimesUsed = new Set<string>();
			for (const name of ["writer", "r1", "r2", "r3"]) start(name);
			let writerKills = 0;
			let readerKills = 0;
			const started = Date.now();
			let seed = 2026;
			const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
			while (Date.now() - started < SECONDS * 1000) {
				await new Promise((r) => setTimeout(r, 1000 + random() * 2500));
				procs.get("writer")!.kill("SIGKILL");
				writerKills++;
				if (random() < 0.3) {
					procs.get(`r${1 + Math.floor(random() * 3)}`)!.kill("SIGKILL");
					readerKills++;
				}
			}
			stopping = true;
			procs.get("writer")!.kill("SIGKILL");
			await Promise.all(
				[...procs.entries()]
					.filter(([n]) => n !== "writer")
					.map(([, p]) => (p.exitCode !== null || p.signalCode !== null ? undefined : new Promise((r) => p.on("exit", r)))),
			);

			const readerLogs = readdirSync(work)
				.filter((f) => f.startsWith("reader-"))
				.map((f) => readFileSync(join(work, f), "utf8"));
			const problems = readerLogs.join("").split("\n").filter(Boolean);
			const reads = existsSync(join(work, "reads.log"))
				? readFileSync(join(work, "reads.log"), "utf8").split("\n").filter(Boolean).map(Number)
				: [];
			const committed = readFileSync(join(work, "committed.log"), "utf8").split("\n").filter(Boolean);
			const writerErrors = existsSync(join(work, "errors.log")) ? readFileSync(join(work, "errors.log"), "utf8") : "";

			const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
			const integrity = index.reading((db) => db.exec("PRAGMA integrity_check")[0].values.flat());
			const present = new Set(index.reading((db) => db.exec("SELECT session_id FROM sessions")[0]?.values.flat() ?? []));
			index.close();

			const summary = {
				engines: [...runtimesUsed].sort(),
				writerKills,
				readerKills,
				reads: reads.reduce((a, b) => a + b, 0),
				commits: committed.length,
				problems: problems.slice(0, 5),
				errors,
				writerErrors: writerErrors.slice(0, 500),
			};
			console.log(`stress: ${JSON.stringify(summary)}`);
			expect(writerKills).toBeGreaterThanOrEqual(Math.min(15, Math.floor(SECONDS / 4)));
			expect(problems, "reader failures").toEqual([]);
			expect(errors).toEqual([]);
			expect(writerErrors).toBe("");
			expect(integrity).toEqual(["ok"]);
			expect(committed.length).toBeGreaterThan(writerKills);
			expect(
				committed.filter((m) => !present.has(m)),
				"committed sessions missing",
			).toEqual([]);
			expect(summary.reads).toBeGreaterThan(100);
		},
		(SECONDS + 90) * 1000,
	);
});
