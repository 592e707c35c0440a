// An index past 4 GiB, opened and queried in place by the wasm engine (npm run bench -- --big).
// Native SQLite (better-sqlite3) writes it quickest: 4.2 GiB of padding first, then the 50 MB corpus, so
// the index's own pages lie beyond 4 GiB. Then the wasm engine, in a fresh process, searches it, adds to it,
// and native SQLite checks it. Prints one JSON line.
//   node bench/big.mjs --sessions DIR --index FILE
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileSource, LookbackIndex } from "../dist/index.js";
import { namedArgs } from "./args.mjs";
import { nativeFileStorage, nativeSql } from "./native-db.mjs";

const args = namedArgs(process.argv.slice(2));
const PADDING_MB = 4300;
const query = "zanzibarRetryPolicy";

if (args.step === "wasm") {
	// The wasm side, in its own process: open in place, search, commit a change past 4 GiB.
	const { chooseEngine, fileStorage } = await import("../dist/index.js");
	const t0 = performance.now();
	const index = await LookbackIndex.open({ sql: await chooseEngine("wasm"), storage: fileStorage(args.index) });
	const found = index.search({ query, limit: 10 });
	const firstMs = performance.now() - t0;
	// A new session committed by the wasm engine lands past 4 GiB too.
	const extra = mkdtempSync(join(tmpdir(), "lookback-big-"));
	mkdirSync(join(extra, "--p--"));
	const now = new Date().toISOString();
	const lines = [
		{ type: "session", version: 3, id: "big-1", timestamp: now, cwd: "/p" },
		{
			type: "message",
			id: "m1",
			parentId: null,
			timestamp: now,
			message: { role: "user", content: [{ type: "text", text: "bigmarkerquartz written by the wasm engine" }], timestamp: 0 },
		},
	];
	writeFileSync(join(extra, "--p--", "2026-11-30T00-00-00-000Z_big-1.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	const t1 = performance.now();
	const report = await index.sync(fileSource([{ path: extra, layout: "nested" }]));
	const commitMs = performance.now() - t1;
	const written = index.search({ query: "bigmarkerquartz" }).results.length;
	index.close();
	rmSync(extra, { recursive: true, force: true });
	process.stdout.write(
		`${JSON.stringify({ firstMs, hits: found.results.map((r) => r.sessionId), added: report.added, warnings: report.warnings, commitMs, written })}\n`,
	);
	process.exit(0);
}

for (const leftover of [args.index, `${args.index}-journal`, `${args.index}.locks`]) rmSync(leftover, { force: true, recursive: true });
const t0 = performance.now();
const native = await LookbackIndex.open({ sql: nativeSql, storage: nativeFileStorage(args.index) });
native.db.run("CREATE TABLE pad(x BLOB)");
native.db.run(
	`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${PADDING_MB}) INSERT INTO pad SELECT zeroblob(1048576) FROM c`,
);
const padded = statSync(args.index).size;
await native.sync(fileSource([{ path: args.sessions, layout: "nested" }]));
const nativeHits = native.search({ query, limit: 10 }).results.map((r) => r.sessionId);
native.close();
const buildMs = performance.now() - t0;
const size = statSync(args.index).size;

const wasm = JSON.parse(
	execFileSync(process.execPath, ["bench/big.mjs", "--step", "wasm", "--index", args.index], { encoding: "utf8" }).trim().split("\n").pop(),
);

const check = await LookbackIndex.open({ sql: nativeSql, storage: nativeFileStorage(args.index) });
const quick = check.db.exec("PRAGMA quick_check")[0].values.flat();
check.close();
process.stdout.write(
	`${JSON.stringify({ bytes: size, paddingBytes: padded, buildMs, nativeHits, wasmHits: wasm.hits, same: JSON.stringify(nativeHits) === JSON.stringify(wasm.hits), wasmOpenAndFirstQueryMs: wasm.firstMs, wasmCommit: { added: wasm.added, ms: wasm.commitMs, found: wasm.written, warnings: wasm.warnings }, quickCheck: quick })}\n`,
);
