/**
 * The real Gemini CLI (scripts/agents/ensure-gemini.mjs installs it into .tools/gemini), run with a home of its
 * own and no model server: its hidden `--fake-responses-non-strict <file>` replays the model's answers from a
 * file. Reusable by any test that needs the CLI (e.g. as an MCP client).
 */

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../agents.js";

/** The installed CLI's entry, when scripts/agents/ensure-gemini.mjs has run. */
export const GEMINI_CLI = join(REPO, ".tools", "gemini", "node_modules", "@google", "gemini-cli", "bundle", "gemini.js");
export const GEMINI_INSTALLED = existsSync(GEMINI_CLI);

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

/** A home for the CLI: `<home>/.gemini/settings.json` skips auth, folder trust and session cleanup; `<home>/tmp` takes its error reports. */
export function geminiHome(home: string): { home: string; geminiDir: string; env: Record<string, string> } {
	const geminiDir = join(home, ".gemini");
	mkdirSync(geminiDir, { recursive: true });
	mkdirSync(join(home, "tmp"), { recursive: true });
	writeFileSync(
		join(geminiDir, "settings.json"),
		JSON.stringify({
			security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
			// Retention off: 0.61.0's cleanup takes the empty chat a resume leaves behind for a broken one and deletes every file of that session id, the resumed chat too.
			general: { enableAutoUpdate: false, sessionRetention: { enabled: false } },
		}),
	);
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
