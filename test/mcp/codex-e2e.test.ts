/**
 * `lookback mcp` under Codex, added with README's one line (`codex mcp add lookback -- lookback mcp`): the real CLI
 * (scripts/agents/ensure-codex.mjs) against a fake Responses API whose model calls lookback's search. Codex records
 * the tool's answer in its own rollout, which must hold the right session; and the server exits with Codex.
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexInstalled, runCodex } from "../agents/codex-run.js";
import { fakeCodexConfig, startFakeCodexModel } from "../agents/fake-codex-server.mjs";
import { SAMPLE, tempDir } from "../helpers.js";
import { agentDir, CLI } from "./mcp-client.js";
import { processesNaming } from "./processes.js";

let fake: Awaited<ReturnType<typeof startFakeCodexModel>>;

function filesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
}

describe.skipIf(!codexInstalled())("lookback mcp under Codex", () => {
	beforeAll(async () => {
		fake = await startFakeCodexModel();
	});
	afterAll(async () => {
		await fake?.close();
	});

	it("is added with one command, answers the model's call with the right session, and exits with Codex", async () => {
		const root = tempDir("codex-mcp");
		const home = join(root, "home");
		const project = join(root, "project");
		mkdirSync(home, { recursive: true });
		mkdirSync(project);
		writeFileSync(join(home, "config.toml"), fakeCodexConfig(fake.url));
		const dir = agentDir();
		const at = { cwd: project, home };

		const added = await runCodex(["mcp", "add", "lookback", "--", process.execPath, CLI, "mcp", "--agent-dir", dir], {
			...at,
			plain: true,
		});
		expect(added.code, added.stderr).toBe(0);
		expect(readFileSync(join(home, "config.toml"), "utf8")).toContain("[mcp_servers.lookback]");

		const asked = await runCodex(['CALL mcp__lookback__search_sessions {"query":"RabbitMQ dead-letter"}'], at);
		expect(asked.code, asked.stderr).toBe(0);
		// Codex offers the server's tools in one namespace.
		type Tool = { name: string; tools?: Tool[] };
		const last = fake.requests.at(-1) as { tools?: Tool[] } | undefined;
		const offered = last?.tools?.find((t) => t.name === "mcp__lookback");
		expect(offered?.tools?.map((t) => t.name).sort()).toEqual(["index_status", "list_sessions", "read_session", "search_sessions"]);

		// Codex's own rollout of the run holds lookback's reply: the sample session about RabbitMQ first.
		const rollout = filesUnder(join(home, "sessions")).find((f) => f.includes(asked.threadId ?? "?"));
		expect(rollout).toBeDefined();
		const outputs = readFileSync(rollout!, "utf8")
			.split("\n")
			.filter((l) => l.length > 0)
			.map((l) => JSON.parse(l) as { type: string; payload: { type?: string; output?: unknown } })
			.filter((l) => l.type === "response_item" && l.payload.type === "function_call_output");
		expect(outputs).toHaveLength(1);
		const output = outputs[0].payload.output;
		const text = typeof output === "string" ? output : JSON.stringify(output);
		const sessions = [...text.matchAll(/\\?"sessionId\\?":\s*\\?"([0-9a-f-]{36})/g)].map((m) => m[1]);
		expect(sessions[0]).toBe(SAMPLE.branched);

		let left = processesNaming(dir);
		for (let i = 0; i < 100 && left.length > 0; i++) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			left = processesNaming(dir);
		}
		expect(left).toEqual([]);
	}, 180_000);
});
