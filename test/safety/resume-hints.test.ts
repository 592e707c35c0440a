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
import { importHint } from "../../src/agents/opencode/import-hint.js";
import { run } from "../../src/cli/main.js";
import { AGENT_KINDS, type AgentKind, agentFacts } from "../../src/core/index.js";
import { isAgentSessionId, restoreHint, resumeHint } from "../../src/core/read/project.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";

/** An agent's command: the first word of its resume command (`cn` for Continue). */
const binOf = (agent: AgentKind) => agentFacts(agent).resume("ID").split(" ")[0];
const AGENT_BINS = [...new Set([...AGENT_KINDS.map(binOf), "lookback"])];
/** A stand-in for the id, one plain word: the sandbox's run of a resume command with it shows where the id goes. */
const PLACEHOLDER = "PLACEHOLDER";

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
	"T-01a100d3-d4c8-723b-80bd-6af395864b0c",
	"1733512345678_ab1cd",
	"aider-20260609140100",
	"T-01a100d3; touch PWNED",
	"1733512345678_ab1cd$(touch PWNED)",
];
const CWDS = ["/tmp/x$(touch PWNED)", "/tmp/it's; touch PWNED; '", "/tmp/a\ntouch PWNED", "/tmp/`touch PWNED`", "/home/dev/ok"];

/** What the agent's resume command runs, with `id` as the one argument it takes (none for Aider's). */
function resumeArgv(s: ReturnType<typeof sandbox>, agent: AgentKind, id: string): string[] {
	let argv = RESUME_ARGV.get(agent);
	if (!argv) RESUME_ARGV.set(agent, (argv = s.runHint(agentFacts(agent).resume(PLACEHOLDER)).got[0]));
	return argv.map((a) => a.replace(PLACEHOLDER, () => id));
}
const RESUME_ARGV = new Map<AgentKind, string[]>();

/** Whatever the hint ran: only agents, each given the id as one argument (lookback's restore too). */
function checkRun(s: ReturnType<typeof sandbox>, hint: string, id: string, agent: AgentKind) {
	const { got, pwned } = s.runHint(hint);
	expect(pwned, hint).toBe(false);
	for (const argv of got) expect(AGENT_BINS, hint).toContain(argv[0]);
	const expected = resumeArgv(s, agent, id);
	for (const argv of got) expect(argv, hint).toEqual(argv[0] === "lookback" ? ["lookback", "restore", id] : expected);
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
					const got = checkRun(s, hint, id, agent);
					expect(
						got.map((argv) => argv[0]),
						hint,
					).toEqual([binOf(agent)]);
					checkRun(s, restoreHint(id, hint), id, agent);
				}
			}
		}
		// OpenCode's restore and Kilo Code's (its fork) print the same import hint, checked and quoted alike.
		for (const agent of ["opencode", "kilo"] as const) {
			const importer = { kind: agent, label: agentFacts(agent).label, command: agent };
			for (const cwd of CWDS) {
				mkdirSync(join(s.work, cwd), { recursive: true });
				const file = join(s.work, "exports", "ses_x.json");
				const imports = [
					[agent, "import", file],
					[agent, "import", `${file}; touch PWNED`],
				];
				for (const [id, resumed] of [
					["ses_2f7a9c1e0b3d4a5f", [[agent, "-s", "ses_2f7a9c1e0b3d4a5f"]]],
					["ses_abc && touch PWNED", []],
				] as const) {
					const hint = importHint(importer, [file, `${file}; touch PWNED`], join(s.work, cwd), id);
					const { got, pwned } = s.runHint(hint);
					expect(pwned, hint).toBe(false);
					expect(got, hint).toEqual([...imports, ...resumed]);
				}
			}
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
				const id = (agent === "opencode" || agent === "kilo") && raw.length > 0 && fc.sample(fc.boolean(), 1)[0] ? `ses_${raw}` : raw;
				const cwd = cwdPart === undefined ? undefined : join(s.work, "d", cwdPart.replace(/\0/g, ""));
				if (cwd) mkdirSync(cwd, { recursive: true });
				const hint = resumeHint(id, agent, cwd);
				if (hint === "") return;
				checkRun(s, hint, id, agent);
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
