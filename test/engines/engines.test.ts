/**
 * The same index on every engine present: lookback's wasm build (the reference, Node 20), node:sqlite
 * (Node 22) and bun:sqlite (Bun). Each builds its own index from the sample sessions and must answer every
 * query class exactly as the wasm engine does; each must also read and write a file another engine wrote.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUN, NODE22 } from "../agents.js";
import { FIXTURES, tempDir } from "../helpers.js";

const WORKER = join(import.meta.dirname, "engine-results.mjs");

type Results = {
	engine: { build: string; sqliteVersion: string };
	added?: number;
	searches: { results: unknown[] }[];
	[key: string]: unknown;
};

function results(runtime: string, engine: string, indexPath: string, mode: "sync" | "no-sync"): Results {
	const out = execFileSync(runtime, [WORKER, engine, indexPath, FIXTURES, mode], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
	return JSON.parse(out) as Results;
}

/** Everything but the engine's name, BM25 scores to 12 significant digits (the last bits differ between SQLite builds). */
function comparable(r: Results) {
	const { engine: _engine, ...rest } = r;
	return JSON.parse(
		JSON.stringify(rest, (_key, value) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toPrecision(12)) : value)),
	);
}

function withoutSync(r: Results) {
	const { added: _a, entries: _e, ...rest } = comparable(r);
	return rest;
}

const builtins = [...(NODE22 ? [{ name: "node:sqlite", runtime: NODE22 }] : []), ...(BUN ? [{ name: "bun:sqlite", runtime: BUN }] : [])];

describe("every engine gives the same answers", () => {
	it("has a built-in engine to compare on this machine", () => {
		expect(builtins.map((b) => b.name)).toEqual(["node:sqlite", "bun:sqlite"]);
	});

	it.each(builtins)("$name: same results as wasm, on its own index and on the wasm engine's file", ({ name, runtime }) => {
		const dir = tempDir("engines");
		const wasm = results(process.execPath, "wasm", join(dir, "wasm.db"), "sync");
		expect(wasm.engine.sqliteVersion).toBe("3.52.0");
		expect(wasm.added).toBe(10);
		expect(wasm.searches.every((s) => s.results.length > 0)).toBe(true);
		const own = results(runtime, "builtin", join(dir, "builtin.db"), "sync");
		expect(own.engine.build).toBe(name);
		expect(comparable(own)).toEqual(comparable(wasm));
		// Each reads the file the other wrote, without a sync, and answers the same.
		expect(comparable(results(runtime, "builtin", join(dir, "wasm.db"), "no-sync"))).toEqual(withoutSync(wasm));
		expect(comparable(results(process.execPath, "wasm", join(dir, "builtin.db"), "no-sync"))).toEqual(withoutSync(wasm));
	});

	it("no ExperimentalWarning reaches the user from node:sqlite", () => {
		if (!NODE22) return;
		const dir = tempDir("warn");
		const cli = join(import.meta.dirname, "..", "..", "dist", "cli.js");
		const stderr = execFileSync(
			NODE22,
			[
				cli,
				"index",
				"--engine",
				"builtin",
				"--index",
				join(dir, "i.db"),
				"--sessions-dir",
				FIXTURES,
				"--only-sessions-dir",
				"--agent-dir",
				join(dir, "agent"),
			],
			{
				encoding: "utf8",
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		expect(stderr).not.toMatch(/Warning/);
	});
});
