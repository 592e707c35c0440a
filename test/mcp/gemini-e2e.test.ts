/**
 * `lookback mcp` under a real MCP client: Gemini CLI 0.61.0 (installed from the registry by
 * scripts/ensure-gemini-mcp.mjs), its model answering from a file (--fake-responses-non-strict: no network). The
 * model calls lookback's search; Gemini records the tool's answer in its own session file, which must hold the
 * right session; and the server must be gone once Gemini has exited.
 */

import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SAMPLE, tempDir } from "../helpers.js";
import { agentDir, CLI } from "./mcp-client.js";
import { processesNaming } from "./processes.js";

const GEMINI = join(
	import.meta.dirname,
	"..",
	"..",
	".tools",
	"gemini-mcp",
	"node_modules",
	"@google",
	"gemini-cli",
	"bundle",
	"gemini.js",
);

const stream = (parts: object[]) => ({
	method: "generateContentStream",
	response: [{ candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }] }],
});

/** The model's turns: Gemini's router asks first (a generateContent), then the model calls the tool, then answers. */
const FAKE_MODEL = [
	{
		method: "generateContent",
		response: {
			candidates: [{ content: { role: "model", parts: [{ text: '{"complexity_reasoning":"a lookup","complexity_score":10}' }] } }],
		},
	},
	stream([{ functionCall: { name: "mcp_lookback_search_sessions", args: { query: "RabbitMQ dead-letter" } } }]),
	stream([{ text: "It was the webshop session about the order queue." }]),
];

describe("lookback mcp under Gemini CLI", () => {
	it("answers Gemini's call with the right session, and exits with Gemini", async () => {
		const root = tempDir("gemini-e2e");
		const home = join(root, "home");
		const project = join(root, "project");
		mkdirSync(join(home, ".gemini"), { recursive: true });
		mkdirSync(project);
		const dir = agentDir();
		writeFileSync(
			join(home, ".gemini", "settings.json"),
			JSON.stringify({
				security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
				general: { enableAutoUpdate: false },
				mcpServers: { lookback: { command: process.execPath, args: [CLI, "mcp", "--agent-dir", dir], trust: true } },
			}),
		);
		const fake = join(root, "model.jsonl");
		writeFileSync(fake, `${FAKE_MODEL.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const env = { PATH: process.env.PATH ?? "", HOME: home, GEMINI_CLI_HOME: home, GEMINI_API_KEY: "fake", TMPDIR: root, NO_COLOR: "1" };
		const args = [
			GEMINI,
			"--fake-responses-non-strict",
			fake,
			"--approval-mode=yolo",
			"--output-format",
			"json",
			"-p",
			"Find the RabbitMQ dead-letter session",
		];
		const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
			execFile(process.execPath, args, { cwd: project, env, timeout: 120_000 }, (error, out, err) =>
				error ? reject(new Error(`gemini failed: ${error.message}\n${err}`)) : resolve({ stdout: out, stderr: err }),
			),
		);
		const result = JSON.parse(stdout) as {
			response: string;
			stats: { tools: { byName: Record<string, { success: number; fail: number }> } };
		};
		expect(result.stats.tools.byName.mcp_lookback_search_sessions, stderr).toMatchObject({ success: 1, fail: 0 });
		expect(result.response).toContain("webshop");

		// Gemini's own record of the turn holds lookback's reply: the right session first.
		const chats = join(home, ".gemini", "tmp", "project", "chats");
		const recorded = readdirSync(chats)
			.map((f) => readFileSync(join(chats, f), "utf8"))
			.join("\n");
		const output = /"functionResponse":\{[^\n]*?"name":"mcp_lookback_search_sessions","response":\{"output":("(?:[^"\\]|\\.)*")/.exec(
			recorded,
		)?.[1];
		expect(output).toBeDefined();
		const reply = JSON.parse(JSON.parse(output!).replace(/^<untrusted_context>\n|\n<\/untrusted_context>$/g, "")) as {
			results: { sessionId: string }[];
		};
		expect(reply.results[0].sessionId).toBe(SAMPLE.branched);

		// The server Gemini started has gone with it (it exits when its stdin closes).
		let left = processesNaming(dir);
		for (let i = 0; i < 100 && left.length > 0; i++) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			left = processesNaming(dir);
		}
		expect(left).toEqual([]);
	});
});
