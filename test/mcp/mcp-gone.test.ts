/** `lookback mcp` and the Pi tool over a session whose file was deleted: found, read, filtered by `gone`, marked. */

import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { openNodeIndex } from "../../src/node/open.js";
import { SAMPLE, settledIndex } from "../helpers.js";
import { agentDir, call, json, type Server, startServer } from "./mcp-client.js";

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) await s.close();
});

function fileOf(dir: string, id: string): string {
	const name = readdirSync(join(dir, "sessions"), { recursive: true })
		.map(String)
		.find((n) => n.includes(id));
	return join(dir, "sessions", name!);
}

type Hit = { sessionId: string; source?: string; goneAt?: string; resumeHint: string };

describe("a gone session over MCP and the Pi tool", () => {
	it("MCP: found and read from the archive, marked, and filtered by gone", async () => {
		const dir = agentDir();
		const s = await startServer(dir);
		servers.push(s);
		await call(s, "search_sessions", { query: "SQLITE_BUSY" });
		for (let i = 0; i < 600 && json(await call(s, "index_status")).state !== "ready"; i++) await new Promise((r) => setTimeout(r, 50));
		expect((json(await call(s, "search_sessions", { query: "SQLITE_BUSY" })).results as Hit[])[0].sessionId).toBe(SAMPLE.bash);
		const path = fileOf(dir, SAMPLE.bash);
		rmSync(path);
		const gone = json(await call(s, "search_sessions", { query: "SQLITE_BUSY", gone: "only" })).results as Hit[];
		expect(gone.map((h) => h.sessionId)).toEqual([SAMPLE.bash]);
		expect(gone[0]).toMatchObject({ source: "gone", resumeHint: `lookback restore ${SAMPLE.bash} && pi --session ${SAMPLE.bash}` });
		expect(gone[0].goneAt).toMatch(/^\d{4}-/);
		expect(json(await call(s, "search_sessions", { query: "SQLITE_BUSY", gone: "exclude" })).results).toEqual([]);
		const listed = json(await call(s, "list_sessions", { gone: "only" })).sessions as Hit[];
		expect(listed.map((h) => h.sessionId)).toEqual([SAMPLE.bash]);
		const read = json(await call(s, "read_session", { sessionId: path }));
		expect(read).toMatchObject({ session: { sessionId: SAMPLE.bash, source: "gone" } });
		expect((read.messages as unknown[]).length).toBeGreaterThan(2);
		expect((await call(s, "search_sessions", { query: "x", gone: "maybe" })).isError).toBe(true);
	});

	it("the Pi tool: the gone parameter, the mark in the reply and its collapsed lines", async () => {
		const dir = agentDir();
		const opened = await openNodeIndex({ agentDir: dir, env: { HOME: join(dir, "no-home") } });
		await opened.index.sync(opened.source);
		rmSync(fileOf(dir, SAMPLE.bash));
		const run = await runSessionSearch(settledIndex(opened), { query: "SQLITE_BUSY", gone: "only" });
		const reply = JSON.parse(run.text);
		expect(reply.results.map((h: Hit) => h.sessionId)).toEqual([SAMPLE.bash]);
		expect(reply.results[0]).toMatchObject({ source: "gone" });
		expect(reply.results[0].context.window.length).toBeGreaterThan(0);
		expect(run.details.lines[0]).toMatch(/ · gone \d{4}-\d\d-\d\d/);
		const browse = JSON.parse((await runSessionSearch(settledIndex(opened), { gone: "only" })).text);
		expect(browse.sessions.map((h: Hit) => h.sessionId)).toEqual([SAMPLE.bash]);
		const read = JSON.parse((await runSessionSearch(settledIndex(opened), { sessionId: SAMPLE.bash })).text);
		expect(read.session).toMatchObject({ source: "gone" });
		const none = JSON.parse((await runSessionSearch(settledIndex(opened), { query: "SQLITE_BUSY", gone: "exclude" })).text);
		expect(none.results).toEqual([]);
	});
});
