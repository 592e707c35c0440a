import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { assistant, projects, user } from "../agents/claude-lines.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";

/** A home without omp sessions, so the machine's own never leak into the tests. */
const HOME_DIR = "/nonexistent-lookback-home";

/** An agent dir holding a copy of the sample sessions. */
function agentDir(): string {
	const dir = join(tempDir("agent"), "agent");
	mkdirSync(dir, { recursive: true });
	cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
	return dir;
}

async function cli(argv: string[], options: { env?: Record<string, string | undefined>; isTTY?: boolean } = {}) {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: HOME_DIR, ...(options.env ?? {}) },
		isTTY: options.isTTY ?? false,
	});
	return { code, stdout, stderr };
}

describe("lookback CLI", () => {
	it("indexes into <agentDir>/lookback/index.db and prints a summary", async () => {
		const dir = agentDir();
		const r = await cli(["index"], { env: { PI_CODING_AGENT_DIR: dir } });
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/^indexed 10 files: 10 new, 0 grown, 0 rewritten, 0 purged, 0 unchanged; \d+ entries/);
		const again = await cli(["index", "--json"], { env: { PI_CODING_AGENT_DIR: dir } });
		const json = JSON.parse(again.stdout);
		expect(json.command).toBe("index");
		expect(json.index).toBe(join(dir, "lookback", "index.db"));
		expect(json.sync).toMatchObject({ added: 0, unchanged: 10, filesParsed: 0, bytesRead: 0 });
	});

	it("shows a progress bar on a terminal only", async () => {
		const dir = agentDir();
		const tty = await cli(["index", "--agent-dir", dir], { isTTY: true });
		expect(tty.stderr).toContain("10/10 files");
		const pipe = await cli(["index", "--agent-dir", dir, "--index", join(dir, "other.db")]);
		expect(pipe.stderr).toBe("");
	});

	it("searches with filters and a stable JSON shape", async () => {
		const dir = agentDir();
		const r = await cli(["search", "RabbitMQ", "--agent-dir", dir, "--json"]);
		expect(r.code).toBe(0);
		const json = JSON.parse(r.stdout);
		expect(Object.keys(json)).toEqual(["command", "sync", "query", "results", "totalSessions", "match", "reading"]);
		expect(json.reading).toBe("keywords");
		expect(Object.keys(json.results[0]).sort()).toEqual(
			[
				"agent",
				"branchState",
				"cwd",
				"entryId",
				"kind",
				"firstPrompt",
				"forks",
				"hits",
				"messageCount",
				"modified",
				"name",
				"parentSessionId",
				"path",
				"project",
				"resumeHint",
				"role",
				"score",
				"sessionId",
				"snippet",
				"started",
				"time",
				"type",
			]
				.filter((k) => k !== "parentSessionId")
				.sort(),
		);
		expect(json.results[0]).toMatchObject({
			sessionId: SAMPLE.branched,
			branchState: "abandoned",
			project: "webshop",
			resumeHint: `pi --session ${SAMPLE.branched}`,
		});
		const filtered = await cli([
			"search",
			"sqlite",
			"--agent-dir",
			dir,
			"--since",
			"2026-11-01",
			"--project",
			"devnotes",
			"--role",
			"assistant",
			"--json",
		]);
		for (const hit of JSON.parse(filtered.stdout).results) {
			expect(hit.project).toBe("devnotes");
			expect(hit.role).toBe("assistant");
			expect(Date.parse(hit.time)).toBeGreaterThanOrEqual(Date.parse("2026-11-01T00:00:00"));
		}
	});

	it("prints compact human output, coloured only on a terminal without NO_COLOR", async () => {
		const dir = agentDir();
		const plain = await cli(["search", "amqplib", "--agent-dir", dir]);
		expect(plain.stdout).toContain("1. Order queue: dead-letter handling");
		expect(plain.stdout).toContain("«amqplib»");
		expect(plain.stdout).not.toContain("\x1b[");
		const colour = await cli(["search", "amqplib", "--agent-dir", dir], { isTTY: true });
		expect(colour.stdout).toContain("\x1b[1;33mamqplib");
		const noColour = await cli(["search", "amqplib", "--agent-dir", dir], { isTTY: true, env: { NO_COLOR: "1" } });
		expect(noColour.stdout).not.toContain("\x1b[");
	});

	it("says why a search found nothing: the flag that hid how many sessions, the words no session has", async () => {
		const dir = agentDir();
		const hidden = await cli(["search", "RabbitMQ", "--since", "2026-11-01", "--agent-dir", dir]);
		expect(hidden.code).toBe(0);
		expect(hidden.stdout).toBe(
			'no session matches "RabbitMQ"\n  --since 2026-11-01 hid 1 session that matches: leave it out to see them\n',
		);
		const missing = await cli(["search", "zzqxv", "--agent-dir", dir, "--json"]);
		expect(JSON.parse(missing.stdout).why).toEqual({ hiddenBy: [], missing: ["zzqxv"], tryQueries: [], message: 'no session has "zzqxv"' });
		const question = await cli(["search", "can you find the RabbitMQ session (not sure when)?", "--agent-dir", dir, "--json"]);
		const json = JSON.parse(question.stdout);
		expect(json).toMatchObject({ reading: "question", wordsLeftOut: ["can", "you", "find", "the", "session", "not", "sure", "when"] });
		expect(json.results[0].sessionId).toBe(SAMPLE.branched);
	});

	it("reads a session by id prefix or by path, around an entry", async () => {
		const dir = agentDir();
		const found = JSON.parse((await cli(["search", "amqplib", "--agent-dir", dir, "--json"])).stdout).results[0];
		const r = await cli(["read", SAMPLE.branched.slice(0, 10), "--agent-dir", dir, "--around", found.entryId, "--window", "1", "--json"]);
		expect(r.code).toBe(0);
		const view = JSON.parse(r.stdout);
		expect(view.messages.map((m: { entryId: string }) => m.entryId)).toContain(found.entryId);
		expect(view.messages.length).toBeLessThanOrEqual(3);
		const byPath = await cli(["read", found.path, "--agent-dir", dir]);
		expect(byPath.code).toBe(0);
		expect(byPath.stdout).toContain("Order queue: dead-letter handling");
	});

	it("refuses a session path outside the session folders, also through .. and symlinks", async () => {
		const dir = agentDir();
		const outside = join(tempDir(), "evil.jsonl");
		writeFileSync(outside, '{"type":"session","id":"x","version":3}\n');
		const link = join(dir, "sessions", "--home-dev-projects-webshop--", "link.jsonl");
		symlinkSync(outside, link);
		for (const ref of [outside, join(dir, "sessions", "..", "..", outside.split("/").slice(-2).join("/")), link, "/etc/passwd"]) {
			const r = await cli(["read", ref, "--agent-dir", dir]);
			expect(r.code, ref).toBe(2);
			expect(r.stderr, ref).toMatch(/^lookback: refusing ".*": /);
			expect(r.stderr.trim().split("\n"), ref).toHaveLength(1);
		}
	});

	it("browses recent sessions and prints stats", async () => {
		const dir = agentDir();
		const browse = JSON.parse((await cli(["browse", "--agent-dir", dir, "--limit", "3", "--json"])).stdout);
		expect(browse.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual([SAMPLE.cliDates, SAMPLE.decision, SAMPLE.compaction]);
		expect(browse.sessions[0]).toMatchObject({ name: "CLI --since/--until flags", cwd: "/home/dev/projects/devnotes" });
		const human = await cli(["browse", "--agent-dir", dir, "--project", "legacy"]);
		expect(human.stdout).toContain("Changelog for 2.3.0");
		const stats = JSON.parse((await cli(["stats", "--agent-dir", dir, "--json"])).stdout);
		expect(stats).toMatchObject({ command: "stats", sessions: 10, skipped: { oversized: 0, "tmp-folder": 0, unreadable: 0 } });
		expect(stats.indexBytes).toBeGreaterThan(0);
	});

	it("exits 2 with a one-line reason on a bad argument", async () => {
		const cases: string[][] = [
			["frobnicate"],
			["search"],
			["search", "x", "--limit", "abc"],
			["search", "x", "--limit", "0"],
			["search", "x", "--since", "someday"],
			["search", "x", "--role", "robot"],
			["search", "x", "--window", "3"],
			["search", "x", "--bogus"],
			["read"],
			["stats", "extra"],
			["search", "-"],
		];
		const dir = agentDir();
		for (const argv of cases) {
			const r = await cli([...argv, "--agent-dir", dir]);
			expect(r.code, argv.join(" ")).toBe(2);
			const reason = r.stderr || r.stdout;
			expect(reason.trim().split("\n"), argv.join(" ")).toHaveLength(1);
		}
		expect((await cli(["read", "nosuchsession", "--agent-dir", dir])).code).toBe(1);
	});

	it("runs as a binary", () => {
		const dir = agentDir();
		const out = execFileSync(process.execPath, ["dist/cli.js", "search", "死锁", "--agent-dir", dir], {
			encoding: "utf8",
			env: { ...process.env, NO_COLOR: "1" },
		});
		expect(out).toContain("批量导入死锁排查");
		const bad = spawnSync(process.execPath, ["dist/cli.js", "search", "x", "--limit", "-1"], { encoding: "utf8" });
		expect(bad.status).toBe(2);
		expect(bad.stderr).toBe('lookback: --limit must be a whole number from 1 to 200, not "-1"\n');
	});

	it("searches inside one session with --session, paged with --offset", async () => {
		const dir = agentDir();
		const r = await cli(["search", "RabbitMQ", "--session", SAMPLE.branched.slice(0, 13), "--agent-dir", dir, "--json"]);
		expect(r.code, r.stderr).toBe(0);
		const json = JSON.parse(r.stdout);
		expect(json.matches.map((m: { entryId: string }) => m.entryId)).toEqual(["2485ebf5", "cd905b67"]);
		const text = await cli(["search", "RabbitMQ", "--session", SAMPLE.branched, "--agent-dir", dir, "--limit", "1"]);
		expect(text.stdout).toContain("1–1 of 2 matches; more with --offset 1");
	});

	it("names each hit's and each session's agent in its text output", async () => {
		const dir = agentDir();
		const claude = projects({ "5d9c1c1e-0000-4000-8000-00000000000a.jsonl": [user("u1", null, "the amqplib consumer in claude")] });
		const env = { CLAUDE_CONFIG_DIR: join(claude, "..") };
		const search = await cli(["search", "amqplib", "--agent-dir", dir], { env });
		const heads = search.stdout.split("\n").filter((l) => /^\d+\. /.test(l));
		expect(heads).toHaveLength(2);
		expect(heads.find((l) => l.includes("Order queue"))).toMatch(/ {2}pi · webshop · /);
		expect(heads.find((l) => l.includes("the amqplib consumer"))).toMatch(/ {2}claude · app · /);
		const browse = await cli(["browse", "--agent-dir", dir, "--limit", "20"], { env });
		expect(browse.stdout).toMatch(/the amqplib consumer in claude +claude · \/home\/user\/app · 1 msgs/);
		expect(browse.stdout).toMatch(/Order queue: dead-letter handling +pi · \/home\/dev\/projects\/webshop · /);
	});

	it("names the call that spawned a hit in a Claude Code 1.0 sub-agent kept in its session's file", async () => {
		const claude = projects({
			"5d9c1c1e-0000-4000-8000-00000000000c.jsonl": [
				user("u1", null, "audit the zoo", { sessionId: "5d9c1c1e-0000-4000-8000-00000000000c" }),
				assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "t1", name: "Task", input: { prompt: "count the okapis" } }]),
				user("x1", null, "count the okapis", { isSidechain: true }),
				assistant("x2", "x1", "msg_x", [{ type: "text", text: "three okapis grazing" }], { isSidechain: true }),
			],
		});
		const r = await cli(["search", "grazing", "--agent-dir", agentDir()], { env: { CLAUDE_CONFIG_DIR: join(claude, "..") } });
		expect(r.stdout).toMatch(/^1\. .* {2}claude · app · .* · 1 hit · assistant · sub-agent of a1$/m);
	});

	it("names in the index summary the records it did not know and each format version newer than any tested", async () => {
		const dir = agentDir();
		const newer = { version: "9.1.0" };
		const claude = projects({
			"5d9c1c1e-0000-4000-8000-00000000000b.jsonl": [
				user("u1", null, "a prompt of a future release", newer),
				{ ...user("u2", "u1", "x", newer), type: "hologram" },
				{ ...user("u3", "u2", "y", newer), type: "telepathy" },
				assistant("a1", "u3", "msg_1", [{ type: "text", text: "an answer" }], newer),
			],
		});
		const r = await cli(["index", "--agent-dir", dir], { env: { CLAUDE_CONFIG_DIR: join(claude, "..") } });
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/; 2 unknown records skipped in \d/);
		expect(r.stdout).toContain("\nnewer than any version tested, read as far as understood: Claude Code 9.1.0\n");
		const again = await cli(["index", "--agent-dir", dir], { env: { CLAUDE_CONFIG_DIR: join(claude, "..") } });
		expect(again.stdout).not.toContain("unknown");
		expect(again.stdout).not.toContain("newer than any");
	});

	it("searches other phrasings with --variant and says which found each session", async () => {
		const dir = agentDir();
		const r = await cli(["search", "cola de mensajes replicada", "--variant", "RabbitMQ quorum", "--agent-dir", dir]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stdout).toContain('found by "RabbitMQ quorum"');
	});
});
