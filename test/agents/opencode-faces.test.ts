/**
 * OpenCode's sessions in every face but the viewer (test/web/agents-reader.test.ts): the Pi and omp tool (search,
 * read, in-session search, a session named by its path inside the database), the overlay's agent: filter and resume,
 * the MCP server and the CLI, over the database the real CLI wrote (test/fixtures/opencode); and once the database
 * is gone, the sessions kept in lookback's archive: found, read, forgotten, and restored as files the real
 * `opencode import` loads.
 */

import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { opencodeFormat } from "../../src/agents/opencode/format.js";
import { run } from "../../src/cli/main.js";
import { newParseState } from "../../src/core/parse/session-format.js";
import { runAction } from "../../src/extension/handoff.js";
import { overlayResults } from "../../src/extension/overlay-results.js";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { fileSource } from "../../src/node/file-source.js";
import { openNodeIndex } from "../../src/node/open.js";
import { settledIndex, tempDir } from "../helpers.js";
import { call as callMcp, json, startServer } from "../mcp/mcp-client.js";
import { FIXTURE_PROJECT } from "./opencode-fixture.js";
import { FIXTURE_CHILD, FIXTURE_SESSION, fixtureDataDir } from "./opencode-rows.js";
import { opencodeBin, startOpencode } from "./opencode-run.js";

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

async function cliIn(home: string, data: string, argv: string[]) {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: home, XDG_DATA_HOME: data },
		isTTY: false,
	});
	return { code, stdout, stderr, json: argv.includes("--json") && stdout ? JSON.parse(stdout) : undefined };
}

/** The fixture indexed through the CLI, then OpenCode's database removed (both sessions gone from it), and indexed again. */
async function goneDatabase() {
	const h = homes();
	const cli = (...argv: string[]) => cliIn(h.home, h.data, [...argv, "--agent-dir", h.agentDir]);
	const source = fileSource([{ path: dirname(h.db), layout: "opencode", agent: "opencode" }]);
	const documents = [
		await source.readDocument!(join(h.db, FIXTURE_SESSION)),
		await source.readDocument!(join(h.db, FIXTURE_SESSION, FIXTURE_CHILD)),
	];
	expect((await cli("index", "--json")).json.sync).toMatchObject({ added: 2, archivedFiles: 2 });
	const live = (await cli("read", FIXTURE_SESSION, "--json")).json;
	for (const name of readdirSync(dirname(h.db))) rmSync(join(dirname(h.db), name));
	expect((await cli("index", "--json")).json.sync).toMatchObject({ gone: 2, purged: 0 });
	return { ...h, cli, documents, live };
}

type GoneHit = { sessionId: string; source?: string; resumeHint: string; kind: string };

describe("OpenCode's sessions once its database is gone", () => {
	it("are found and read whole from lookback's archive in the CLI, the Pi tool and the MCP server, marked gone", async () => {
		const { home, agentDir, data, cli, documents, live } = await goneDatabase();
		const found = (await cli("search", "ocelot42ridge", "--gone", "only", "--json")).json.results as GoneHit[];
		expect(found[0]).toMatchObject({ sessionId: FIXTURE_SESSION, source: "gone", resumeHint: `lookback restore ${FIXTURE_SESSION}` });
		expect((await cli("search", "ocelot42ridge", "--gone", "exclude", "--json")).json.results).toEqual([]);
		const read = (await cli("read", FIXTURE_SESSION, "--json")).json;
		expect(read).toMatchObject({ session: { source: "gone", agent: "opencode" }, messages: live.messages });
		expect((await cli("read", FIXTURE_SESSION)).stdout).toContain("OpenCode's database no longer holds it; read from lookback's archive");
		// The archive counts the documents lookback parsed, not the rows' stamps.
		const stats = (await cli("stats", "--json")).json.archive;
		expect(stats).toMatchObject({ files: 2, gone: 2, sourceBytes: documents[0].length + documents[1].length });

		const opened = await openNodeIndex({ agentDir, env: { HOME: home, XDG_DATA_HOME: data } });
		const ask = async (params: Record<string, unknown>) => JSON.parse((await runSessionSearch(settledIndex(opened), params)).text);
		expect((await ask({ query: "narwhal", gone: "only" })).results[0]).toMatchObject({ sessionId: FIXTURE_SESSION, source: "gone" });
		expect((await ask({ query: "narwhal", gone: "exclude" })).results).toEqual([]);
		expect((await ask({ sessionId: FIXTURE_CHILD })).session).toMatchObject({ kind: "subagent", source: "gone" });
		opened.index.close();

		const server = await startServer(agentDir, { env: { HOME: home, XDG_DATA_HOME: data } });
		try {
			const hits = json(await callMcp(server, "search_sessions", { query: "CHILD count the llamas", agent: "opencode", gone: "only" }));
			expect((hits.results as GoneHit[]).map((h) => [h.sessionId, h.source])).toContainEqual([FIXTURE_CHILD, "gone"]);
			const whole = json(await callMcp(server, "read_session", { sessionId: FIXTURE_SESSION }));
			expect(whole.session).toMatchObject({ source: "gone", agent: "opencode" });
			expect(JSON.stringify(whole.messages)).toContain("ocelot42ridge");
		} finally {
			await server.close();
		}
	});

	it("are forgotten for good by lookback forget, through a rebuilt index", async () => {
		const { agentDir, cli } = await goneDatabase();
		// What a forget of the whole project would select (without --yes): every session and sub-agent it holds.
		const sessions = async () =>
			((await cli("forget", "--project", "zebra-app", "--gone", "only", "--json")).json.sessions as GoneHit[])
				.map((s) => [s.sessionId, s.source])
				.sort();
		expect(await sessions()).toEqual([
			[FIXTURE_CHILD, "gone"],
			[FIXTURE_SESSION, "gone"],
		]);
		const listed = await cli("forget", FIXTURE_CHILD, "--json");
		expect(listed.json).toMatchObject({ dryRun: true, count: 1 });
		expect((await cli("forget", FIXTURE_CHILD, "--yes", "--json")).json).toMatchObject({ removed: { index: 1, archive: 1 } });
		expect(await sessions()).toEqual([[FIXTURE_SESSION, "gone"]]);
		const lookback = join(agentDir, "lookback");
		for (const name of readdirSync(lookback)) if (name.startsWith("index.db")) rmSync(join(lookback, name), { recursive: true });
		expect((await cli("index", "--json")).json.sync).toMatchObject({ added: 1, fromArchive: 1 });
		expect(await sessions()).toEqual([[FIXTURE_SESSION, "gone"]]);
	});

	it("are restored as files for `opencode import`, never into OpenCode's database, and the real OpenCode imports them", async () => {
		const { home, data, cli, documents } = await goneDatabase();
		const restored = await cli("restore", FIXTURE_SESSION, "--json");
		expect(restored.code, restored.stderr).toBe(0);
		const files = restored.json.files as { path: string; bytes: number; outcome: string }[];
		const removeAfter = (paths: string[]) =>
			onTestFinished(() => {
				for (const p of paths) rmSync(dirname(p), { recursive: true, force: true });
			});
		removeAfter(files.map((f) => f.path));
		expect(files.map((f) => [f.path.split("/").pop(), f.outcome])).toEqual([
			[`${FIXTURE_SESSION}.json`, "written"],
			[`${FIXTURE_CHILD}.json`, "written"],
		]);
		// The document the archive kept, as `opencode export` prints it (no row of the fixture was malformed: the same bytes).
		expect(files.map((f) => readFileSync(f.path))).toEqual(documents.map((d) => Buffer.from(d)));
		const command = `cd ${FIXTURE_PROJECT} && opencode import ${files[0].path} && opencode import ${files[1].path}`;
		expect(restored.json).toMatchObject({
			load: { agent: { label: "OpenCode", command: "opencode" }, command, lost: { files: 0, cutTexts: 0 } },
			resumeHint: `${command} && opencode -s ${FIXTURE_SESSION}`,
			sync: { returned: 0 },
		});
		// Nothing was written where OpenCode keeps its data.
		expect(readdirSync(join(data, "opencode"))).toEqual([]);
		const text = await cli("restore", FIXTURE_SESSION);
		expect(text.stdout).toContain("lookback never writes OpenCode's database");
		expect(text.stdout).toMatch(
			/resume it with: cd \/home\/user\/zebra-app && opencode import \S+ && opencode import \S+ && opencode -s ses_/,
		);
		removeAfter(text.stdout.match(/\/\S+\/ses_\w+\.json/g) ?? []);

		if (!opencodeBin()) return;
		// The real OpenCode loads them into a database of its own, in the data folder lookback reads: the sessions are live again.
		const project = tempDir("opencode-import-project");
		const again = (await cli("restore", FIXTURE_SESSION, "--json")).json.files as { path: string }[];
		removeAfter(again.map((f) => f.path));
		for (const f of again) {
			const imported = await startOpencode(["import", f.path], { cwd: project, home });
			expect(imported.code, imported.stderr).toBe(0);
			expect(imported.stdout).toContain("Imported session: ses_");
		}
		const exported = await startOpencode(["export", FIXTURE_SESSION], { cwd: project, home });
		expect(exported.code, exported.stderr).toBe(0);
		const entries = (bytes: Uint8Array) =>
			opencodeFormat.parseDocument!(bytes, newParseState())!.entries.map((e) => ({ id: e.id, type: e.type, raw: e.raw }));
		expect(entries(new TextEncoder().encode(exported.stdout.slice(exported.stdout.indexOf("{"))))).toEqual(entries(documents[0]));
		const back = await cli("search", "ocelot42ridge", "--agent", "opencode", "--json");
		expect(back.json.sync.returned).toBe(2);
		expect(back.json.results[0]).toMatchObject({ sessionId: FIXTURE_SESSION });
		expect(back.json.results[0].source).toBeUndefined();
	}, 120_000);
});
