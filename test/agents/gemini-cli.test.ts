/**
 * Gemini CLI end to end: the real CLI (pinned in scripts/agents/ensure-gemini.mjs) runs a task with a shell call,
 * a resume forced to compress what came before, a resume that delegates to the generalist sub-agent, a prompt
 * rewound in the interactive UI and a resume after it, its model's answers replayed from files
 * (--fake-responses-non-strict); lookback indexes what it wrote.
 */

import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import {
	contentLine,
	GEMINI_INSTALLED,
	GEMINI_MODEL,
	geminiHome,
	rewindGemini,
	runGemini,
	SCRIPT_PTY,
	streamLine,
	writeGeminiSettings,
} from "./gemini-run.js";

let home: ReturnType<typeof geminiHome>;
let lookbackHome = "";
let project = "";
let sessionId = "";
let chats = "";

async function lookback(argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: lookbackHome, GEMINI_CLI_HOME: home.home, PI_CODING_AGENT_DIR: join(lookbackHome, "pi-agent") },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

describe.skipIf(!GEMINI_INSTALLED)("Gemini CLI's chats, written by the real CLI", () => {
	beforeAll(async () => {
		// Kept for the whole file (the helpers' temp dirs go after each test).
		home = geminiHome(mkdtempSync(join(tmpdir(), "gemini-home-")));
		lookbackHome = mkdtempSync(join(tmpdir(), "gemini-lookback-"));
		project = realpathSync(mkdtempSync(join(tmpdir(), "gemini-project-")));
		writeFileSync(join(project, "notes.txt"), "the walrus migration uses pgbouncer transaction mode\n");
		const gemini = async (args: string[], lines: string[]) => {
			const r = await runGemini(home, project, ["-m", GEMINI_MODEL, "--approval-mode=yolo", ...args], lines);
			expect(r.code, r.stderr).toBe(0);
			return r;
		};
		const first = await gemini(
			["-o", "json", "-p", "what is in notes.txt, zebracorn?"],
			[
				streamLine({
					text: "Reading the notes.",
					calls: [{ name: "run_shell_command", args: { command: "cat notes.txt", description: "read" } }],
				}),
				streamLine({ text: "The notes talk about the walrus." }),
			],
		);
		sessionId = JSON.parse(first.stdout).session_id;
		expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
		// A tiny threshold makes the resumed turn compress what came before: a summary, then its verification (kept).
		writeGeminiSettings(home.geminiDir, { model: { compressionThreshold: 0.00001 } });
		await gemini(
			["--resume", sessionId, "-p", "after the compression we talk about the narwhal"],
			[
				contentLine("<state_snapshot>the notes were read</state_snapshot>"),
				contentLine("<state_snapshot>the quetzalsnap notes about the walrus were read</state_snapshot>"),
				streamLine({ text: "Narwhal noted." }),
			],
		);
		writeGeminiSettings(home.geminiDir);
		// The sub-agent's turns come from the same file, in order: its shell call, then its complete_task.
		await gemini(
			["--resume", sessionId, "-p", "ask a helper to count the llamas"],
			[
				streamLine({
					text: "Delegating.",
					calls: [{ name: "invoke_agent", args: { agent_name: "generalist", prompt: "count the llamas, pangolinstar" } }],
				}),
				streamLine({
					text: "Counting for the parent.",
					// The word is made by the shell (the CLI refuses $(…) substitutions): only the output has it.
					calls: [{ name: "run_shell_command", args: { command: "printf 'llama%dcount' 42", description: "count" } }],
				}),
				streamLine({ calls: [{ name: "complete_task", args: { result: { response: "There are 42 llamas, says the helper." } } }] }),
				streamLine({ text: "The helper counted the llamas." }),
			],
		);
		await gemini(["--resume", sessionId, "-p", "a question about the okapi we will take back"], [streamLine({ text: "An answer." })]);
		chats = join(home.geminiDir, "tmp", readdirSync(join(home.geminiDir, "tmp"))[0], "chats");
		// The okapi prompt is the last user-type message: one arrow up from "Stay at current position".
		if (SCRIPT_PTY) await rewindGemini(home, project, sessionId, 1, chats);
		await gemini(["--resume", sessionId, "-p", "after the rewind: capybarine"], [streamLine({ text: "Capybarine it is." })]);
		// Listing the project's sessions has the model name the ones without a summary.
		const list = await gemini(["--list-sessions"], [contentLine("Counting llamas after the walrus notes")]);
		expect(list.stdout).toContain("Counting llamas after the walrus notes");
	}, 900_000);
	afterAll(() => {
		for (const dir of [home?.home, lookbackHome, project]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("finds the shell call's output, names the agent, the project, the title and the command that resumes it", async () => {
		const r = await lookback(["search", "pgbouncer transaction", "--role", "tool", "--agent", "gemini"]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.json.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0, newVersions: [] });
		expect(r.json.results[0]).toMatchObject({
			sessionId,
			agent: "gemini",
			kind: "session",
			role: "tool",
			cwd: project,
			name: "Counting llamas after the walrus notes",
			firstPrompt: "what is in notes.txt, zebracorn?",
			resumeHint: `cd ${project} && gemini --resume ${sessionId}`,
		});
	});

	it("indexes each prompt once, though the CLI writes it again in every checkpoint", async () => {
		const r = await lookback(["search", "narwhal", "--role", "user", "--agent", "gemini"]);
		expect(r.json.results).toHaveLength(1);
		expect(r.json.results[0]).toMatchObject({ sessionId, hits: 1 });
	});

	it("leaves what the compression summarized compacted, its summary and what follows active", async () => {
		const before = await lookback(["search", "pgbouncer transaction", "--role", "tool", "--agent", "gemini"]);
		expect(before.json.results[0].branchState).toBe("compacted");
		const summary = await lookback(["search", "quetzalsnap", "--agent", "gemini"]);
		expect(summary.json.results[0]).toMatchObject({ sessionId, role: "summary", type: "compaction", branchState: "active" });
		const after = await lookback(["search", "narwhal", "--agent", "gemini"]);
		expect(after.json.results[0]).toMatchObject({ sessionId, branchState: "active" });
	});

	it("links the sub-agent's chat to its session and to the call that spawned it", async () => {
		const r = await lookback(["search", "llama42count", "--agent", "gemini"]);
		const sub = r.json.results.find((h: { kind: string }) => h.kind === "subagent");
		expect(sub).toMatchObject({
			agent: "gemini",
			spawnedBySessionId: sessionId,
			cwd: project,
			resumeHint: `cd ${project} && gemini --resume ${sessionId}`,
		});
		expect(sub.sessionId).not.toBe(sessionId);
		expect(sub.path).toBe(join(chats, sessionId, `${sub.sessionId}.jsonl`));
		expect(sub.spawnedBy).toMatch(new RegExp(`-${sessionId.slice(0, 8)}\\.jsonl$`));
		expect(sub.spawnedByEntryId).toBeTruthy();
		const read = await lookback(["read", sessionId, "--around", sub.spawnedByEntryId, "--window", "1"]);
		expect(read.code, read.stderr).toBe(0);
		expect(JSON.stringify(read.json)).toContain(sub.sessionId);
	});

	it.skipIf(!SCRIPT_PTY)("leaves the prompt rewound in the interactive UI abandoned, and the resume after it active", async () => {
		const gone = await lookback(["search", "okapi", "--agent", "gemini"]);
		expect(gone.json.results[0]).toMatchObject({ sessionId, branchState: "abandoned" });
		const after = await lookback(["search", "capybarine", "--agent", "gemini"]);
		expect(after.json.results[0]).toMatchObject({ sessionId, role: "user", branchState: "active" });
	});

	it("forgets every Gemini session on a --no-agent run", async () => {
		const gone = await lookback(["search", "narwhal", "--no-agent", "gemini"]);
		expect(gone.json.results).toEqual([]);
		expect(gone.json.sync.purged).toBeGreaterThanOrEqual(2);
	});
});
