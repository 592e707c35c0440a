/**
 * Resume hints from hostile sessions, run in a sandbox: a shell whose PATH holds only fake agents (pi, omp, claude,
 * codex, gemini, opencode, lookback) that write down the arguments they got. For every agent, crafted ids and cwds
 * (`deadbeef; touch PWNED #`, `/tmp/x$(touch PWNED)`, quotes, backticks, newlines) never run anything but the
 * agent, which gets the id as one argument, or no command is made at all; a fast-check fuzz holds the same, and a
 * Pi session file whose header holds such an id and cwd gives such hints through the real CLI.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { opencodeImportHint } from "../../src/agents/opencode/import-hint.js";
import { run } from "../../src/cli/main.js";
import { AGENT_KINDS, type AgentKind } from "../../src/core/index.js";
import { isAgentSessionId, restoreHint, resumeHint } from "../../src/core/read/project.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";

const AGENT_BINS = ["pi", "omp", "claude", "codex", "gemini", "opencode", "lookback"];

/** A sandbox: fake agents on PATH, a place for PWNED to appear, and the folder the hint starts in. */
function sandbox() {
	const root = tempDir("hint-sandbox");
	const bin = join(root, "bin");
	mkdirSync(bin);
	const calls = join(root, "calls.jsonl");
	for (const name of AGENT_BINS) {
		const path = join(bin, name);
		writeFileSync(
			path,
			`#!/bin/sh\n${process.execPath} -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)) + "\\n")' ${calls} ${name} "$@"\n`,
		);
		chmodSync(path, 0o755);
	}
	const work = join(root, "work");
	mkdirSync(work);
	const runHint = (hint: string) => {
		rmSync(calls, { force: true });
		spawnSync("/bin/sh", ["-c", hint], { cwd: work, env: { PATH: bin, HOME: root }, encoding: "utf8", timeout: 10_000 });
		const got = existsSync(calls)
			? readFileSync(calls, "utf8")
					.trim()
					.split("\n")
					.filter(Boolean)
					.map((l) => JSON.parse(l) as string[])
			: [];
		const pwned = existsSync(join(work, "PWNED")) || existsSync(join(root, "PWNED")) || existsSync("/tmp/PWNED-lookback-hint");
		return { got, pwned };
	};
	return { root, work, runHint };
}

const IDS = [
	"deadbeef; touch PWNED #",
	"x$(touch PWNED)",
	"`touch PWNED`",
	"a'b; touch PWNED; 'c",
	"id\ntouch PWNED",
	"--help; touch PWNED",
	"ses_abc && touch PWNED",
	"01a100d3-d4c8-723b-80bd-6af395864b0c",
	"ses_2f7a9c1e0b3d4a5f",
];
const CWDS = ["/tmp/x$(touch PWNED)", "/tmp/it's; touch PWNED; '", "/tmp/a\ntouch PWNED", "/tmp/`touch PWNED`", "/home/dev/ok"];

/** Whatever the hint ran: only agents, each given the id as one argument. */
function checkRun(s: ReturnType<typeof sandbox>, hint: string, id: string) {
	const { got, pwned } = s.runHint(hint);
	expect(pwned, hint).toBe(false);
	for (const argv of got) expect(AGENT_BINS, hint).toContain(argv[0]);
	const agentCalls = got.filter((argv) => argv[0] !== "lookback");
	for (const argv of agentCalls) expect(argv.at(-1), hint).toBe(id);
	return got;
}

describe("resume hints run in a sandbox", () => {
	it("for every agent, crafted ids and cwds run nothing but the agent, the id one argument", () => {
		const s = sandbox();
		for (const agent of AGENT_KINDS) {
			for (const id of IDS) {
				for (const cwd of [undefined, ...CWDS]) {
					// The folder exists, so that `cd` into it goes on to the agent.
					if (cwd) mkdirSync(join(s.work, cwd), { recursive: true });
					const hint = resumeHint(id, agent, cwd ? join(s.work, cwd) : undefined);
					if (!isAgentSessionId(id, agent)) {
						expect(hint, `${agent} ${id}`).toBe("");
						continue;
					}
					const got = checkRun(s, hint, id);
					expect(
						got.map((argv) => argv[0]),
						hint,
					).toEqual([agent]);
					checkRun(s, restoreHint(id, hint), id);
				}
			}
		}
		for (const cwd of CWDS) {
			mkdirSync(join(s.work, cwd), { recursive: true });
			const file = join(s.work, "exports", "ses_x.json");
			const hint = opencodeImportHint([file, `${file}; touch PWNED`], join(s.work, cwd), "ses_2f7a9c1e0b3d4a5f");
			const { got, pwned } = s.runHint(hint);
			expect(pwned, hint).toBe(false);
			expect(got).toEqual([
				["opencode", "import", file],
				["opencode", "import", `${file}; touch PWNED`],
				["opencode", "-s", "ses_2f7a9c1e0b3d4a5f"],
			]);
		}
	});

	it("fuzz: any id and cwd, for any agent, runs nothing but the agent", () => {
		const s = sandbox();
		const nasty = fc.oneof(
			fc.string({ unit: fc.constantFrom(..."ab1_-.;&|$`'\"\\\n ()<>*?#~!{}".split("")), maxLength: 24 }),
			fc.string({ maxLength: 16 }),
		);
		fc.assert(
			fc.property(fc.constantFrom(...AGENT_KINDS), nasty, fc.option(nasty, { nil: undefined }), (agent: AgentKind, raw, cwdPart) => {
				const id = agent === "opencode" && raw.length > 0 && fc.sample(fc.boolean(), 1)[0] ? `ses_${raw}` : raw;
				const cwd = cwdPart === undefined ? undefined : join(s.work, "d", cwdPart.replace(/\0/g, ""));
				if (cwd) mkdirSync(cwd, { recursive: true });
				const hint = resumeHint(id, agent, cwd);
				if (hint === "") return;
				checkRun(s, hint, id);
			}),
			{ numRuns: 150 },
		);
	});

	it("a Pi session file whose header holds a crafted id and cwd: the CLI's hints run nothing", async () => {
		const s = sandbox();
		const agentDir = join(s.root, "agent");
		const folder = join(agentDir, "sessions", "--home-dev-crafted--");
		mkdirSync(folder, { recursive: true });
		const id = "deadbeef; touch PWNED #";
		// A real Pi session (a sample) whose header's id and cwd were rewritten.
		const sample = readdirSync(FIXTURES, { recursive: true })
			.map(String)
			.find((n) => n.includes(SAMPLE.bash))!;
		const lines = readFileSync(join(FIXTURES, sample), "utf8").split("\n");
		lines[0] = JSON.stringify({ ...JSON.parse(lines[0]), id, cwd: "/tmp/x$(touch PWNED)" });
		writeFileSync(join(folder, "2026-12-01T10-00-00-000Z_crafted.jsonl"), lines.join("\n"));
		let out = "";
		const code = await run(["search", "SQLITE_BUSY", "--agent-dir", agentDir, "--json"], {
			stdout: (t) => (out += t),
			stderr: () => {},
			env: { HOME: "/nonexistent-lookback-home" },
			isTTY: false,
		});
		expect(code).toBe(0);
		const hit = JSON.parse(out).results[0];
		expect(hit, out).toBeDefined();
		expect(hit.sessionId).toBe(id);
		// No command is made of an id no agent writes.
		expect(hit.resumeHint).toBe("");
		const human = execFileSync(
			process.execPath,
			[join(import.meta.dirname, "..", "..", "dist", "cli.js"), "search", "SQLITE_BUSY", "--agent-dir", agentDir],
			{
				encoding: "utf8",
				env: { ...process.env, HOME: "/nonexistent-lookback-home" },
			},
		);
		expect(human).not.toContain("pi --session deadbeef;");
	});
});
