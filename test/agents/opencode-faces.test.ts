/**
 * OpenCode's sessions in every face but the viewer (test/web/opencode-reader.test.ts): the Pi and omp tool (search,
 * read, in-session search, a session named by its path inside the database), the overlay's agent: filter and resume,
 * the MCP server and the CLI, over the database the real CLI wrote (test/fixtures/opencode).
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { runAction } from "../../src/extension/handoff.js";
import { overlayResults } from "../../src/extension/overlay-results.js";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { openNodeIndex } from "../../src/node/open.js";
import { settledIndex, tempDir } from "../helpers.js";
import { call as callMcp, json, startServer } from "../mcp/mcp-client.js";
import { FIXTURE_PROJECT } from "./opencode-fixture.js";
import { FIXTURE_CHILD, FIXTURE_SESSION, fixtureDataDir } from "./opencode-rows.js";

function homes() {
	const home = tempDir("opencode-faces");
	const agentDir = join(home, "pi-agent");
	mkdirSync(agentDir, { recursive: true });
	const data = join(home, "data");
	const db = join(fixtureDataDir(data), "opencode.db");
	return { home, agentDir, data, db };
}

describe("OpenCode in the Pi tool", () => {
	it("finds, reads and searches inside an OpenCode session, by id or by its path in the database", async () => {
		const { home, agentDir, data, db } = homes();
		const opened = await openNodeIndex({ agentDir, env: { HOME: home, XDG_DATA_HOME: data } });
		await opened.index.sync(opened.source);
		const ask = async (params: Record<string, unknown>) => JSON.parse((await runSessionSearch(settledIndex(opened), params)).text);
		const found = await ask({ query: "ocelot42ridge" });
		expect(found.results[0]).toMatchObject({
			sessionId: FIXTURE_SESSION,
			agent: "opencode",
			resumeHint: `cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`,
		});
		expect(found.results[0].context.window.length).toBeGreaterThan(0);
		expect((await ask({ query: "ocelot42ridge", agent: "pi" })).results).toEqual([]);
		const read = await ask({ sessionId: FIXTURE_SESSION });
		expect(read.session).toMatchObject({ agent: "opencode", name: "Quokka title Look around please." });
		expect(JSON.stringify(read.messages)).toContain("ocelot42ridge");
		const byPath = await ask({ sessionId: join(db, FIXTURE_SESSION, FIXTURE_CHILD) });
		expect(byPath.session).toMatchObject({ sessionId: FIXTURE_CHILD, kind: "subagent", spawnedBySessionId: FIXTURE_SESSION });
		const inside = await ask({ sessionId: FIXTURE_SESSION, query: "narwhal" });
		expect(inside.matches[0]).toMatchObject({ role: "user", branchState: "active" });
		opened.index.close();
	});

	it("lists OpenCode's sessions in the overlay under agent:opencode and resumes one by copying its command", async () => {
		const { home, agentDir, data } = homes();
		const opened = await openNodeIndex({ agentDir, env: { HOME: home, XDG_DATA_HOME: data } });
		await opened.index.sync(opened.source);
		const recent = overlayResults(opened.index, "agent:opencode");
		expect(recent.rows.map((r) => [r.sessionId, r.agent])).toEqual([[FIXTURE_SESSION, "opencode"]]);
		expect(overlayResults(opened.index, "ocelot42ridge agent:opencode").rows[0]).toMatchObject({
			sessionId: FIXTURE_SESSION,
			agent: "opencode",
		});
		expect(overlayResults(opened.index, "ocelot42ridge agent:claude").rows).toEqual([]);
		expect(overlayResults(opened.index, "agent:cursor").error).toMatch(/unknown agent cursor/);
		const notes: string[] = [];
		let switched = false;
		const ctx = {
			ui: { notify: (text: string) => notes.push(text), setEditorText: () => {}, getEditorText: () => "" },
			switchSession: async () => {
				switched = true;
			},
			newSession: async () => {},
		};
		const row = {
			sessionId: FIXTURE_SESSION,
			path: join(data, "opencode", "opencode.db", FIXTURE_SESSION),
			title: "Quokka title",
			project: "zebra-app",
			snippet: "",
			resumeHint: `cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`,
			agent: "opencode" as const,
		};
		await runAction(opened, { kind: "resume", row }, ctx as unknown as Parameters<typeof runAction>[2]);
		expect(switched).toBe(false);
		expect(notes.join("\n")).toContain(`cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`);
		expect(notes.join("\n")).toContain("a opencode session opens in opencode");
		opened.index.close();
	});
});

describe("OpenCode in the CLI and the MCP server", () => {
	it("lookback read takes a session's path inside the database", async () => {
		const { home, agentDir, data, db } = homes();
		let stdout = "";
		let stderr = "";
		const code = await run(["read", join(db, FIXTURE_SESSION), "--agent-dir", agentDir, "--json"], {
			stdout: (t) => (stdout += t),
			stderr: (t) => (stderr += t),
			env: { HOME: home, XDG_DATA_HOME: data },
			isTTY: false,
		});
		expect(code, stderr).toBe(0);
		expect(JSON.parse(stdout).session).toMatchObject({ sessionId: FIXTURE_SESSION, agent: "opencode" });
	});

	it("search_sessions and read_session answer with OpenCode's sessions", async () => {
		const { home, agentDir, data } = homes();
		const server = await startServer(agentDir, { env: { HOME: home, XDG_DATA_HOME: data } });
		try {
			const found = json(await callMcp(server, "search_sessions", { query: "ocelot42ridge", agent: "opencode" }));
			const hit = (found.results as { sessionId: string; agent: string; resumeHint: string }[])[0];
			expect(hit).toMatchObject({
				sessionId: FIXTURE_SESSION,
				agent: "opencode",
				resumeHint: `cd ${FIXTURE_PROJECT} && opencode -s ${FIXTURE_SESSION}`,
			});
			const read = json(await callMcp(server, "read_session", { sessionId: FIXTURE_CHILD }));
			expect(read.session).toMatchObject({ agent: "opencode", kind: "subagent", spawnedBySessionId: FIXTURE_SESSION });
		} finally {
			await server.close();
		}
	});
});
