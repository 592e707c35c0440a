/**
 * A file found where no folder names its agent (`--sessions-dir DIR`, files picked in the viewer) is read as the
 * agent its first line says: the real files each CLI wrote (test/fixtures/*), every one known as its own agent.
 */
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOpencodeDocument } from "../../src/agents/opencode/node/walk.js";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { sniffAgent } from "../../src/core/parse/formats.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";
import { ompStore } from "../omp/omp-store.js";
import { FIXTURE_SESSION, fixtureDataDir } from "./opencode-rows.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
const CLAUDE = join(FIXTURES, "claude", "projects", "-home-user-zebra-app");
const CODEX = join(FIXTURES, "codex", "sessions", "2026", "12", "01");
const GEMINI = join(FIXTURES, "gemini", "home", ".gemini", "tmp", "proj", "chats");
const PI = join(FIXTURES, "sessions", "--home-dev-projects-webshop--");
const QWEN = join(FIXTURES, "qwen", "projects", "-home-user-zebra-app");

const jsonlIn = (dir: string) =>
	readdirSync(dir)
		.filter((n) => n.endsWith(".jsonl"))
		.map((n) => join(dir, n));

/** Every `.jsonl` file a real CLI wrote in the fixtures, by the agent that wrote it (sub-agents' files too). */
const WRITTEN: [string, string][] = [
	...jsonlIn(CLAUDE).map((p): [string, string] => ["claude", p]),
	["claude", join(CLAUDE, "803bb4c1-76e6-4594-9fb6-45953cf58af7", "subagents", "agent-a1fa55d4f6c0a40b7.jsonl")],
	...jsonlIn(CODEX).map((p): [string, string] => ["codex", p]),
	...jsonlIn(GEMINI).map((p): [string, string] => ["gemini", p]),
	["gemini", join(GEMINI, "d46b784e-2a92-408e-b3c6-6e32f3787118", "2fecca0c-e4af-4399-aa0d-9f228cdf74ea.jsonl")],
	...jsonlIn(PI).map((p): [string, string] => ["pi", p]),
	...jsonlIn(join(QWEN, "chats")).map((p): [string, string] => ["qwen", p]),
	["copilot", join(FIXTURES, "copilot", "session-state", "0b92ea4c-4bbb-44f3-968a-762c1eb45d99", "events.jsonl")],
	["qwen", join(QWEN, "subagents", "df9630d5-ad91-4ee3-9588-5a983d001c52", "agent-general-purpose-call_5.jsonl")],
];

/** Older Claude Code files' first lines (the fixtures are 2.1's): a 1.0.x summary or prompt, a 2.0.x file history snapshot. */
const OLDER_CLAUDE = [
	{
		type: "file-history-snapshot",
		messageId: "u-1",
		snapshot: { messageId: "u-1", trackedFileBackups: {}, timestamp: "2025-11-01T10:00:00.000Z" },
		isSnapshotUpdate: false,
	},
	{ type: "summary", summary: "Walrus config hunt", leafUuid: "u-2" },
	{
		parentUuid: null,
		isSidechain: false,
		userType: "external",
		cwd: "/home/user/zebra-app",
		sessionId: "1c0d0000-0000-4000-8000-000000000001",
		version: "1.0.51",
		type: "user",
		message: { role: "user", content: "where is the walrus config?" },
		uuid: "u-1",
		timestamp: "2025-07-01T10:00:00.000Z",
	},
];

describe("the agent of a file whose folder names none", () => {
	it.each(WRITTEN)("%s: %s", (agent, path) => {
		expect(sniffAgent(readFileSync(path)) ?? "pi").toBe(agent);
	});

	it("knows an older Claude Code file by a summary, a prompt or a file history snapshot as its first line", () => {
		for (const first of OLDER_CLAUDE) expect(sniffAgent(new TextEncoder().encode(`${JSON.stringify(first)}\n`))).toBe("claude");
	});

	it("knows an OpenCode session as OpenCode renders it (its export)", async () => {
		const dir = fixtureDataDir(tempDir("opencode-data"));
		expect(sniffAgent(await readOpencodeDocument(join(dir, "opencode.db", FIXTURE_SESSION)))).toBe("opencode");
	});

	it("indexes each file of a folder given by hand as its own agent's, omp's by its title slot", async () => {
		const dir = tempDir("sniff-flat");
		const expected = new Map<string, string>();
		for (const [i, [agent, path]] of WRITTEN.entries()) {
			// A sub-agent's chat and its session share no folder here: each is a session of its own, named by a prefix.
			const name = `${i}-${basename(path)}`;
			copyFileSync(path, join(dir, name));
			expected.set(name, agent);
		}
		copyFileSync(ompStore().parentFile, join(dir, "omp.jsonl"));
		expected.set("omp.jsonl", "omp");
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		await index.sync(fileSource([{ path: dir, layout: "flat" }]));
		const found = new Map(index.browse({ limit: 100, scope: "all" }).map((s) => [basename(s.path), s.agent]));
		expect(found).toEqual(expected);
	});
});
