/** The history lookback keeps, on the command line: gone sessions, `lookback restore`, `lookback forget`, the archive in stats. */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";

const HOME_DIR = "/nonexistent-lookback-home";

function agentDir(): string {
	const dir = join(tempDir("agent"), "agent");
	mkdirSync(dir, { recursive: true });
	cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
	return dir;
}

async function cli(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: { HOME: HOME_DIR }, isTTY: false });
	return { code, stdout, stderr, json: argv.includes("--json") && stdout ? JSON.parse(stdout) : undefined };
}

function fileOf(dir: string, id: string): string {
	const name = readdirSync(join(dir, "sessions"), { recursive: true })
		.map(String)
		.find((n) => n.includes(id));
	return join(dir, "sessions", name!);
}

describe("lookback's history on the command line", () => {
	it("finds and reads a gone session, marks it, restores it byte for byte, and never overwrites", async () => {
		const dir = agentDir();
		await cli(["index", "--agent-dir", dir]);
		const path = fileOf(dir, SAMPLE.bash);
		const bytes = readFileSync(path);
		const full = (await cli(["read", SAMPLE.bash, "--agent-dir", dir, "--json"])).json;
		rmSync(path);

		const index = await cli(["index", "--agent-dir", dir]);
		expect(index.stdout).toMatch(/ 0 purged, 1 gone \(kept in the archive\), 9 unchanged;/);
		const found = await cli(["search", "SQLITE_BUSY", "--gone", "only", "--agent-dir", dir, "--json"]);
		expect(found.json.results.map((h: { sessionId: string }) => h.sessionId)).toEqual([SAMPLE.bash]);
		expect(found.json.results[0]).toMatchObject({
			source: "gone",
			resumeHint: `lookback restore ${SAMPLE.bash} && pi --session ${SAMPLE.bash}`,
		});
		expect((await cli(["search", "SQLITE_BUSY", "--gone", "exclude", "--agent-dir", dir, "--json"])).json.results).toEqual([]);
		const human = await cli(["search", "SQLITE_BUSY", "--agent-dir", dir]);
		expect(human.stdout).toMatch(/· gone \d{4}-\d\d-\d\d/);
		const read = await cli(["read", SAMPLE.bash, "--agent-dir", dir, "--json"]);
		expect(read.json.messages).toEqual(full.messages);
		expect(read.json.session).toMatchObject({ source: "gone" });
		expect((await cli(["read", SAMPLE.bash, "--agent-dir", dir])).stdout).toContain(`lookback restore ${SAMPLE.bash} writes it back`);
		const whole = await cli(["read", SAMPLE.bash, "--full", "--agent-dir", dir, "--json"]);
		expect(whole.json.messages.map((m: { entryId: string }) => m.entryId)).toEqual(
			full.messages.map((m: { entryId: string }) => m.entryId),
		);
		// By the path a result named, though the file is gone.
		expect((await cli(["read", path, "--agent-dir", dir, "--json"])).json.session.sessionId).toBe(SAMPLE.bash);
		const stats = (await cli(["stats", "--agent-dir", dir, "--json"])).json;
		expect(stats.archive).toMatchObject({ keeping: true, files: 10, gone: 1, forgotten: 0, dir: join(dir, "lookback", "archive") });
		expect(stats.archive.bytes).toBeLessThan(stats.archive.sourceBytes);
		expect(await cli(["search", "x", "--gone", "some", "--agent-dir", dir])).toMatchObject({ code: 2 });

		const restored = await cli(["restore", SAMPLE.bash.slice(0, 8), "--agent-dir", dir, "--json"]);
		expect(restored.code, restored.stderr).toBe(0);
		expect(restored.json).toMatchObject({
			command: "restore",
			files: [{ path, outcome: "written", bytes: bytes.length }],
			sync: { returned: 1 },
		});
		expect(readFileSync(path).equals(bytes)).toBe(true);
		expect((await cli(["restore", SAMPLE.bash, "--agent-dir", dir, "--json"])).json.files[0].outcome).toBe("in-place");
		expect((await cli(["search", "SQLITE_BUSY", "--gone", "only", "--agent-dir", dir, "--json"])).json.results).toEqual([]);

		// Another file where the session was: left alone, the restore refused.
		rmSync(path);
		await cli(["index", "--agent-dir", dir]);
		writeFileSync(path, "not the session\n");
		const refused = await cli(["restore", SAMPLE.bash, "--agent-dir", dir, "--no-sync"]);
		expect(refused.code).toBe(1);
		expect(refused.stderr).toMatch(/^lookback: refusing to restore .*: a different file is there/);
		expect(readFileSync(path, "utf8")).toBe("not the session\n");
	});

	it("forgets after a dry run: removed from the index and the archive, and never indexed again, even rebuilt", async () => {
		const dir = agentDir();
		await cli(["index", "--agent-dir", dir]);
		const dry = await cli(["forget", "--project", "webshop", "--agent-dir", dir, "--json"]);
		expect(dry.json).toMatchObject({ command: "forget", dryRun: true, count: 3 });
		expect((await cli(["forget", "--project", "webshop", "--agent-dir", dir])).stdout).toMatch(/3 sessions would be forgotten.*--yes/);
		expect((await cli(["search", "RabbitMQ", "--agent-dir", dir, "--json"])).json.results).toHaveLength(1);

		const done = await cli(["forget", "--project", "webshop", "--yes", "--agent-dir", dir, "--json"]);
		expect(done.json).toMatchObject({ dryRun: false, count: 3, removed: { index: 3, archive: 3 } });
		const gone = done.json.sessions.map((s: { path: string }) => s.path);
		for (const p of gone) expect(existsSync(p), "the agent's file is never touched").toBe(true);
		expect((await cli(["search", "RabbitMQ", "--agent-dir", dir, "--json"])).json.results).toEqual([]);
		const again = await cli(["index", "--agent-dir", dir, "--json"]);
		expect(again.json.sync).toMatchObject({ added: 0 });
		const archive = join(dir, "lookback", "archive");
		const manifest = readFileSync(join(archive, "manifest.jsonl"), "utf8");
		const held = new Map(
			manifest
				.trim()
				.split("\n")
				.map((l) => [JSON.parse(l).path, l]),
		);
		for (const p of gone) expect(JSON.parse(held.get(p)!)).toMatchObject({ drop: true });

		for (const f of readdirSync(join(dir, "lookback"))) if (f.startsWith("index.db")) rmSync(join(dir, "lookback", f), { recursive: true });
		const rebuilt = await cli(["index", "--agent-dir", dir, "--json"]);
		expect(rebuilt.json.sync).toMatchObject({ added: 7 });
		expect((await cli(["search", "RabbitMQ", "--agent-dir", dir, "--json"])).json.results).toEqual([]);
		expect((await cli(["stats", "--agent-dir", dir, "--json"])).json.archive).toMatchObject({ files: 7, forgotten: 3 });

		// One session by id, with --before: nothing older than the oldest session goes.
		expect((await cli(["forget", "--before", "2020-01-01", "--agent-dir", dir, "--json"])).json.count).toBe(0);
		expect((await cli(["forget", SAMPLE.chinese, "--agent-dir", dir, "--json"])).json).toMatchObject({ count: 1, dryRun: true });
		expect(await cli(["forget", "--agent-dir", dir])).toMatchObject({ code: 2 });
	});

	it("keeps no copies with --no-archive: a deleted session is then purged", async () => {
		const dir = agentDir();
		await cli(["index", "--agent-dir", dir, "--no-archive"]);
		expect(existsSync(join(dir, "lookback", "archive"))).toBe(false);
		rmSync(fileOf(dir, SAMPLE.bash));
		const sync = (await cli(["index", "--agent-dir", dir, "--no-archive", "--json"])).json.sync;
		expect(sync).toMatchObject({ purged: 1, gone: 0 });
		expect((await cli(["stats", "--agent-dir", dir, "--no-archive", "--json"])).json.archive).toMatchObject({ keeping: false, files: 0 });
	});
});
