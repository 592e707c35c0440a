/**
 * The real Gemini CLI (scripts/agents/ensure-gemini.mjs installs it into .tools/gemini), run with a home of its
 * own and no model server: its hidden `--fake-responses-non-strict <file>` replays the model's answers from a
 * file. Reusable by any test that needs the CLI (e.g. as an MCP client).
 */

import { execFile, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../agents.js";
import { processesNaming } from "../mcp/processes.js";

/** The installed CLI's entry, when scripts/agents/ensure-gemini.mjs has run. */
export const GEMINI_CLI = join(REPO, ".tools", "gemini", "node_modules", "@google", "gemini-cli", "bundle", "gemini.js");
export const GEMINI_INSTALLED = existsSync(GEMINI_CLI);

/** The model the tests name (`-m`): with none the CLI routes each prompt through a classifier call first. */
export const GEMINI_MODEL = "gemini-3.1-pro-preview";

/** One model answer, streamed as one chunk: text, then calls to tools. */
export interface FakeTurn {
	text?: string;
	calls?: { name: string; args: Record<string, unknown> }[];
}

/** A `generateContentStream` line of a responses file for one model turn. */
export function streamLine(turn: FakeTurn): string {
	const parts = [...(turn.text ? [{ text: turn.text }] : []), ...(turn.calls ?? []).map((c) => ({ functionCall: c }))];
	const response = {
		candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
		usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
	};
	return JSON.stringify({ method: "generateContentStream", response: [response] });
}

/** A `generateContent` line (the CLI's side calls: a session's summary, the router's classifier). */
export function contentLine(text: string): string {
	const response = { candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }] };
	return JSON.stringify({ method: "generateContent", response });
}

/** `<gemini>/settings.json`: auth by key, no folder trust, no updates, no session cleanup, plus `extra` (e.g. `model.compressionThreshold`). */
export function writeGeminiSettings(geminiDir: string, extra: Record<string, unknown> = {}): void {
	writeFileSync(
		join(geminiDir, "settings.json"),
		JSON.stringify({
			security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
			// Retention off: 0.61.0's cleanup takes the empty chat a resume leaves behind for a broken one and deletes every file of that session id, the resumed chat too.
			general: { enableAutoUpdate: false, sessionRetention: { enabled: false } },
			...extra,
		}),
	);
}

/** A home for the CLI: `<home>/.gemini/settings.json` skips auth, folder trust and session cleanup; `<home>/tmp` takes its error reports. */
export function geminiHome(home: string): { home: string; geminiDir: string; env: Record<string, string> } {
	const geminiDir = join(home, ".gemini");
	mkdirSync(geminiDir, { recursive: true });
	mkdirSync(join(home, "tmp"), { recursive: true });
	writeGeminiSettings(geminiDir);
	const env = {
		PATH: process.env.PATH ?? "",
		HOME: home,
		GEMINI_CLI_HOME: home,
		TMPDIR: join(home, "tmp"),
		GEMINI_API_KEY: "fake",
		NO_COLOR: "1",
	};
	return { home, geminiDir, env };
}

let runs = 0;

/**
 * Run `gemini <args>` in `cwd` with a home of its own, the model's answers replayed from `lines` (a side call with
 * no answer left fails inside the CLI and is skipped by it, as the router's classifier is).
 */
export function runGemini(
	home: ReturnType<typeof geminiHome>,
	cwd: string,
	args: string[],
	lines: string[],
	timeoutMs = 180_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
	const responses = join(home.home, `responses-${++runs}.jsonl`);
	writeFileSync(responses, `${lines.join("\n")}\n`);
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			[GEMINI_CLI, "--fake-responses-non-strict", responses, ...args],
			{ cwd, env: home.env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
			(error, stdout, stderr) => {
				const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
				resolve({ code, stdout, stderr });
			},
		);
	});
}

/** util-linux `script`: runs the CLI's interactive UI on a pseudo-terminal, keys written to its stdin (what `/rewind` needs). */
export const SCRIPT_PTY = spawnSync("script", ["--version"]).status === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Rewind a chat as a person does, in the interactive UI (the CLI writes `$rewindTo` only from there): `/rewind`,
 * `ups` arrows up from "Stay at current position" (the list holds every user-type message, tool responses
 * too), Enter, then "Rewind conversation". Resolves once a chat in `chatsDir` holds the rewind and the CLI has quit.
 */
export async function rewindGemini(
	home: ReturnType<typeof geminiHome>,
	cwd: string,
	sessionId: string,
	ups: number,
	chatsDir: string,
	timeoutMs = 180_000,
): Promise<void> {
	const responses = join(home.home, `responses-${++runs}.jsonl`);
	writeFileSync(responses, "");
	const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
	const command = [process.execPath, GEMINI_CLI, "--fake-responses-non-strict", responses, "-m", GEMINI_MODEL, "--resume", sessionId];
	const child = spawn("script", ["-q", "-e", "-c", `stty cols 120 rows 40; exec ${command.map(quote).join(" ")}`, "/dev/null"], {
		cwd,
		env: { ...home.env, TERM: "xterm-256color" },
		stdio: ["pipe", "pipe", "pipe"],
	});
	let screen = "";
	let lastOutput = Date.now();
	child.stdout.on("data", (d: Buffer) => {
		lastOutput = Date.now();
		// the terminal's escape sequences (colours, cursor moves, titles) are stripped
		screen += d.toString().replace(/\x1b\[[0-9;?]*[a-zA-Z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]/g, "");
	});
	const deadline = Date.now() + timeoutMs;
	const until = async (done: () => boolean, what: string) => {
		while (!done()) {
			if (Date.now() > deadline)
				throw new Error(`gemini's interactive UI: no ${what} in time; the screen ends with:\n${screen.slice(-2000)}`);
			await sleep(200);
		}
	};
	const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
	try {
		// Keys typed while the session is still being restored are lost: wait for the prompt and a quiet screen.
		await until(() => screen.includes("Type your message") && Date.now() - lastOutput > 2000, "prompt");
		for (const ch of "/rewind") {
			child.stdin.write(ch);
			await sleep(50);
		}
		await sleep(500);
		child.stdin.write("\r");
		await until(() => screen.includes("Stay at current position"), "rewind list");
		for (let i = 0; i < ups; i++) {
			child.stdin.write("\x1b[A");
			await sleep(300);
		}
		child.stdin.write("\r");
		await until(() => screen.includes("Rewind conversation"), "confirmation");
		await sleep(300);
		child.stdin.write("\r");
		const rewound = () =>
			readdirSync(chatsDir).some((name) => name.endsWith(".jsonl") && readFileSync(join(chatsDir, name), "utf8").includes('"$rewindTo"'));
		await until(rewound, "rewind in the chat file");
		child.stdin.write("\x03");
		await sleep(500);
		child.stdin.write("\x03");
		await Promise.race([exited, sleep(10_000)]);
	} finally {
		if (child.exitCode === null) child.kill("SIGKILL");
		// Gemini runs in a session of its own on the pseudo-terminal (and starts itself again with a bigger heap), so
		// killing `script` leaves it running: its processes are found by the responses file they name, and killed.
		for (const pid of processesNaming(responses)) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// gone meanwhile
			}
		}
	}
}
