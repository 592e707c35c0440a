/**
 * The archive under SIGKILL: a real `lookback index` process killed while it writes copies (an append past the
 * length the manifest names, or a new copy no line names yet). Nothing kept before is lost or changed, the
 * archive reads as it was, and the next sync cuts the unfinished write off and completes every copy.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, cpSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { FileArchive } from "../../src/node/archive-store.js";
import { openNodeIndex } from "../../src/node/open.js";
import { FIXTURES, tempDir } from "../helpers.js";

const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");

const WORDS = Array.from({ length: 2000 }, (_, i) => `w${(i * 7919).toString(36)}`);

/** A Pi message line of `bytes` of words in random order: big enough that compressing and writing it takes a while. */
function noisyLine(id: string, bytes: number): string {
	const words: string[] = [];
	let seed = randomBytes(4).readUInt32LE();
	for (let n = 0; n < bytes; n += 6) {
		seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
		words.push(WORDS[seed % WORDS.length]);
	}
	const text = words.join(" ");
	return `${JSON.stringify({ type: "message", id, parentId: null, timestamp: new Date().toISOString(), message: { role: "user", content: [{ type: "text", text }], timestamp: 0 } })}\n`;
}

function jsonlFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true })
		.map(String)
		.filter((n) => n.endsWith(".jsonl"))
		.map((n) => join(dir, n));
}

/** Whether the archive is in the middle of a write: a copy longer than its manifest line says, or a data file no line names. */
function midWrite(archive: FileArchive): boolean {
	archive.manifest.refresh();
	const named = new Set<string>();
	for (const r of archive.manifest.records.values()) {
		named.add(r.data);
		const size = statSync(join(archive.dir, "data", r.data), { throwIfNoEntry: false })?.size ?? 0;
		if (size > r.dataSize) return true;
	}
	const root = join(archive.dir, "data");
	return readdirSync(root, { recursive: true })
		.map(String)
		.some((n) => n.includes("/") && !named.has(n));
}

describe("the archive when its writer is killed", () => {
	it("loses nothing kept before, reads as it was, and the next sync completes every copy", async () => {
		const agentDir = join(tempDir("kill-archive"), "agent");
		const sessions = join(agentDir, "sessions");
		cpSync(FIXTURES, sessions, { recursive: true });
		const env = { HOME: join(agentDir, "no-home") };
		const first = await openNodeIndex({ agentDir, env });
		await first.index.sync(first.source);
		first.index.close();
		const archive = new FileArchive(join(agentDir, "lookback", "archive"));
		const kept = new Map(jsonlFiles(sessions).map((p) => [p, readFileSync(p)]));

		let killed = false;
		for (let attempt = 0; attempt < 6 && !killed; attempt++) {
			// Every file grows by a few MB, and new ones appear: minutes of compressing and writing for the sync to do.
			for (const [i, path] of [...kept.keys()].entries()) appendFileSync(path, noisyLine(`k${attempt}x${i}`, 1 << 20));
			for (let n = 0; n < 4; n++)
				writeFileSync(
					join(
						sessions,
						"--home-dev-projects-webshop--",
						`2026-12-0${n + 1}T00-00-00-000Z_01a9${attempt}${n}00-0000-7000-8000-00000000000${n}.jsonl`,
					),
					`${JSON.stringify({ type: "session", version: 3, id: `01a9${attempt}${n}00-0000-7000-8000-00000000000${n}`, timestamp: new Date().toISOString(), cwd: "/home/dev/projects/webshop" })}\n${noisyLine("n1", 2 << 20)}`,
				);
			const child = spawn(process.execPath, [CLI, "index", "--agent-dir", agentDir], { env: { ...process.env, ...env }, stdio: "ignore" });
			const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
			let running = true;
			child.on("exit", () => (running = false));
			while (running) {
				if (midWrite(archive)) {
					child.kill("SIGKILL");
					break;
				}
				await new Promise((r) => setTimeout(r, 2));
			}
			await exited;
			// Killed while a write was under way (not in the instant its manifest line landed): else grow the files and try again.
			killed = midWrite(archive);
		}
		expect(killed, "the writer was killed in the middle of a write").toBe(true);

		// Every copy the manifest names reads back as the bytes it held: the earlier copies are intact.
		const reader = new FileArchive(archive.dir);
		reader.manifest.refresh();
		for (const [path, bytes] of kept) {
			const record = reader.manifest.records.get(path);
			expect(record, path).toBeDefined();
			const copy = Buffer.from(reader.readSync(path, 0, record!.size)!);
			// The file as it was when that copy was made: its first bytes as they are now (the files only grew).
			expect(copy.equals(readFileSync(path).subarray(0, record!.size)), path).toBe(true);
			expect(record!.size).toBeGreaterThanOrEqual(bytes.length);
			const data = readFileSync(join(reader.dir, "data", record!.data)).subarray(0, record!.dataSize);
			expect(gunzipSync(data).equals(copy), path).toBe(true);
		}

		// The next sync cuts the unfinished write off and brings every copy up to the file.
		const after = await openNodeIndex({ agentDir, env });
		const report = await after.index.sync(after.source);
		expect(report.warnings.filter((w) => w.kind === "archive-failed")).toEqual([]);
		expect(midWrite(reader)).toBe(false);
		for (const path of jsonlFiles(sessions)) {
			const bytes = readFileSync(path);
			expect(Buffer.from(reader.readSync(path, 0, bytes.length)!).equals(bytes), path).toBe(true);
		}
		expect(after.index.stats().sessions).toBe(jsonlFiles(sessions).length);
	}, 120_000);

	it("ignores a manifest line a killed writer left unfinished, and the next writer starts on a line of its own", async () => {
		const agentDir = join(tempDir("torn-manifest"), "agent");
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		const env = { HOME: join(agentDir, "no-home") };
		const opened = await openNodeIndex({ agentDir, env });
		await opened.index.sync(opened.source);
		const manifest = opened.archive.manifest.path;
		const whole = readFileSync(manifest);
		appendFileSync(manifest, '{"path":"/half/a line cut short by SIGKILL","data":"xx');
		const reader = new FileArchive(opened.archive.dir);
		reader.manifest.refresh();
		expect(reader.manifest.records.size).toBe(10);
		const [path] = jsonlFiles(join(agentDir, "sessions"));
		appendFileSync(path, noisyLine("t1", 1000));
		await opened.index.sync(opened.source);
		const text = readFileSync(manifest, "utf8");
		expect(text.startsWith(whole.toString("utf8"))).toBe(true);
		expect(text).not.toContain("cut short");
		expect(
			text
				.trimEnd()
				.split("\n")
				.every((l) => JSON.parse(l)),
		).toBe(true);
		reader.manifest.refresh();
		expect(reader.manifest.records.get(path)?.size).toBe(statSync(path).size);
	});
});
