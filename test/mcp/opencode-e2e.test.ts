/**
 * `lookback mcp` under OpenCode, added with README's one line (`opencode mcp add lookback -- lookback mcp`): the real
 * CLI (scripts/agents/ensure-opencode.mjs) against a fake OpenAI-compatible model that calls lookback's search.
 * OpenCode keeps the tool's answer in its own database, which lookback reads back: the right session first, and
 * the calling session (this very run, committed only to OpenCode's WAL while it runs) left out; the server exits
 * with OpenCode.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSource } from "../../src/node/file-source.js";
import { startFakeOpencodeModel } from "../agents/fake-opencode-server.mjs";
import { configureOpencode, opencodeBin, runOpencode, startOpencode } from "../agents/opencode-run.js";
import { SAMPLE, tempDir } from "../helpers.js";
import { agentDir, CLI } from "./mcp-client.js";
import { processesNaming } from "./processes.js";

let fake: Awaited<ReturnType<typeof startFakeOpencodeModel>>;

describe.skipIf(!opencodeBin())("lookback mcp under OpenCode", () => {
	beforeAll(async () => {
		fake = await startFakeOpencodeModel();
	});
	afterAll(async () => {
		await fake?.close();
	});

	it("is added with one command, answers the model's call with the right session, and exits with OpenCode", async () => {
		const root = tempDir("opencode-mcp");
		const home = join(root, "home");
		const project = join(root, "project");
		mkdirSync(home, { recursive: true });
		mkdirSync(project);
		configureOpencode(home, fake.url);
		const dir = agentDir();
		const at = { cwd: project, home };

		const added = await startOpencode(["mcp", "add", "lookback", "--", process.execPath, CLI, "mcp", "--agent-dir", dir], at);
		expect(added.code, added.stderr).toBe(0);

		// OpenCode names an MCP server's tools `<server>_<tool>`.
		const asked = await runOpencode('CALL lookback_search_sessions {"query":"RabbitMQ dead-letter"}', at);
		expect(asked.code, asked.stderr).toBe(0);
		const last = fake.requests.at(-1) as { tools?: { function: { name: string } }[] } | undefined;
		expect(last?.tools?.map((t) => t.function.name)).toEqual(
			expect.arrayContaining(["lookback_search_sessions", "lookback_read_session", "lookback_list_sessions", "lookback_index_status"]),
		);

		// OpenCode's own record of the run holds lookback's reply, read back by lookback's reader of its database.
		const data = join(home, "data", "opencode");
		const source = fileSource([{ path: data, layout: "opencode", agent: "opencode" }]);
		const walked = await source.walk();
		const run = walked.files.find((f) => f.path.endsWith(`${asked.sessionId}`));
		expect(run).toBeDefined();
		const doc = JSON.parse(new TextDecoder().decode(await source.readDocument!(run!.path))) as {
			messages: { parts: { type: string; tool?: string; state?: { output?: string } }[] }[];
		};
		const call = doc.messages.flatMap((m) => m.parts).find((p) => p.type === "tool" && p.tool === "lookback_search_sessions");
		const reply = JSON.parse(call?.state?.output ?? "{}") as {
			results: { sessionId: string; agent: string }[];
			leftOut?: { sessionId: string }[];
		};
		expect(reply.results[0]).toMatchObject({ sessionId: SAMPLE.branched, agent: "pi" });
		// The calling session is OpenCode's own run: committed only to its WAL while it ran, found and left out.
		expect(reply.results.map((r) => r.sessionId)).not.toContain(asked.sessionId);
		expect(reply.leftOut?.map((l) => l.sessionId)).toEqual([asked.sessionId]);

		// The server OpenCode started has gone with it.
		let left = processesNaming(dir);
		for (let i = 0; i < 100 && left.length > 0; i++) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			left = processesNaming(dir);
		}
		expect(left).toEqual([]);
	}, 180_000);
});
