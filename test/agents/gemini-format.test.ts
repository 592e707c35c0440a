/** Gemini CLI's chats read into Pi's entry tree: real files of 0.61.0 (test/fixtures/gemini) and every record type. */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiDir } from "../../src/agents/gemini/node/paths.js";
import { run } from "../../src/cli/main.js";
import { branchStates } from "../../src/core/parse/branch.js";
import { entryText, wholeTextOfLine } from "../../src/core/parse/entry-text.js";
import { formatOf, parseBytes } from "../../src/core/parse/formats.js";
import { newParseState, type SessionEntry } from "../../src/core/parse/session-format.js";
import { fileSource } from "../../src/node/file-source.js";
import { sessionPathInRoots } from "../../src/node/paths.js";
import { tempDir } from "../helpers.js";

const HOME = join(import.meta.dirname, "..", "fixtures", "gemini", "home");
const CHATS = join(HOME, ".gemini", "tmp", "proj", "chats");
const HASHED = join(HOME, ".gemini", "tmp", "f2d6d41259a7aa558085d25afc95143c43f793b59cae81bca73c808446a53e19", "chats");
const MAIN = join(CHATS, "session-2026-12-01T11-33-4a5c3cf3.jsonl");
const LEGACY = join(CHATS, "session-2026-12-01T09-00-7e1c9a40.json");
const CARRIED = join(CHATS, "session-2026-12-01T09-00-7e1c9a40.jsonl");
const PARENT = join(CHATS, "session-2026-12-01T11-33-d46b784e.jsonl");
const CHILD = join(CHATS, "d46b784e-2a92-408e-b3c6-6e32f3787118", "2fecca0c-e4af-4399-aa0d-9f228cdf74ea.jsonl");
const gemini = formatOf("gemini");

function parseText(text: string) {
	const state = newParseState();
	const parsed = parseBytes(gemini, new TextEncoder().encode(text), state, 0, true);
	return { ...parsed, state };
}

function parseFile(path: string) {
	return parseText(readFileSync(path, "utf8"));
}

function lines(...records: unknown[]): string {
	return `${records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n")}\n`;
}

/** What each entry makes searchable, as [role, text], in file order. */
function searchable(entries: SessionEntry[]): [string, string][] {
	return entries.flatMap((e) => {
		const t = entryText(e);
		return t ? [[t.role, t.body] as [string, string]] : [];
	});
}

function stateOf(entries: SessionEntry[], contains: string): string | undefined {
	// A compaction's first kept entry is in its record, as the index reads it.
	const kept = (e: SessionEntry) => (typeof e.raw.firstKeptEntryId === "string" ? e.raw.firstKeptEntryId : undefined);
	const states = branchStates(entries.map((e) => ({ ...e, firstKeptEntryId: kept(e) })));
	const e = entries.find((x) => entryText(x)?.body.includes(contains));
	return e ? states.get(e.seq) : undefined;
}

const META = {
	sessionId: "s-1",
	projectHash: "ab",
	startTime: "2026-12-01T10:00:00.000Z",
	lastUpdated: "2026-12-01T10:00:00.000Z",
	kind: "main",
};
const user = (id: string, text: string) => ({ id, timestamp: "2026-12-01T10:00:01.000Z", type: "user", content: [{ text }] });
const model = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
	id,
	timestamp: "2026-12-01T10:00:02.000Z",
	type: "gemini",
	content: text,
	thoughts: [],
	model: "gemini-3.1-pro-preview",
	...extra,
});

describe("Gemini CLI chats (real files of 0.61.0)", () => {
	it("reads a chat with a tool call, two resumes, a summary and a rewind", () => {
		const { entries, state, malformedLines, unknownRecords, title } = parseFile(MAIN);
		expect(malformedLines).toBe(0);
		expect(unknownRecords).toBeUndefined();
		expect(state.header).toMatchObject({ id: "4a5c3cf3-d58b-4eeb-a3bd-524f0e2c55a6", timestamp: "2026-12-01T11:33:07.409Z" });
		expect(title).toBe("Reading the secret notes");
		const text = searchable(entries);
		// The tool's output once (not again from the user-role copies of the response), without the CLI's untrusted wrapper.
		expect(text.filter(([, t]) => t.includes("Output: the secret word is quokkaberry"))).toEqual([
			["tool", expect.stringMatching(/^Output: the secret word is quokkaberry\nProcess Group PGID: \d+$/)],
		]);
		expect(text).toContainEqual(["user", "what is in notes.txt, zebracorn?"]);
		expect(text).toContainEqual([
			"assistant",
			'Let me read the notes, zebracorn.\n→ run_shell_command {"command":"cat notes.txt","description":"show the notes"}',
		]);
		// The CLI's opening context (date, OS, the folder's listing) is not searched.
		expect(text.some(([, t]) => t.includes("session_context") || t.includes("My operating system"))).toBe(false);
		const toolResult = entries.find((e) => entryText(e)?.role === "tool")!;
		expect((toolResult.raw.message as { toolName?: string }).toolName).toBe("run_shell_command");
		// The rewound prompt and its answer stay searchable on an abandoned branch; the chat goes on from before them.
		expect(stateOf(entries, "and now, wombatine?")).toBe("abandoned");
		expect(stateOf(entries, "Resumed: still quokkaberry, and now wombatine.")).toBe("abandoned");
		expect(stateOf(entries, "try again, capybarine?")).toBe("active");
		expect(stateOf(entries, "After the rewind: capybarine it is.")).toBe("active");
		expect(stateOf(entries, "what is in notes.txt, zebracorn?")).toBe("active");
		expect(stateOf(entries, "Output: the secret word is quokkaberry")).toBe("active");
		const capy = entries.find((e) => entryText(e)?.body === "try again, capybarine?")!;
		const before = entries.find((e) => e.id === capy.parentId)!;
		expect(entryText(before)?.body).toBe("The notes say the secret word is quokkaberry.");
		expect(entries.at(-1)?.id).toBe("a169a3c5-d4cf-40ca-87cb-767a08307752");
	});

	it("gives a long message's line back whole (snippets cut from its unstored middle)", () => {
		const { entries } = parseFile(MAIN);
		const bytes = readFileSync(MAIN);
		const answer = entries.find((e) => entryText(e)?.body.startsWith("Let me read the notes"))!;
		expect(answer.range).toBeDefined();
		const whole = wholeTextOfLine(bytes.subarray(answer.range!.start, answer.range!.end), "gemini");
		expect(whole).toContain("Let me read the notes, zebracorn.");
	});

	it("reads a chat written before 0.39 (one JSON document) and the .jsonl the CLI carried it over to", () => {
		const legacy = parseFile(LEGACY);
		expect(legacy.malformedLines).toBe(0);
		expect(legacy.pendingBytes).toBe(0);
		expect(legacy.state.header).toMatchObject({ id: "7e1c9a40-5b2d-4f31-8c6e-0d9b2a4f1e57", timestamp: "2026-12-01T09:00:00.000Z" });
		expect(searchable(legacy.entries)).toEqual([
			["user", "legacy question: what is in notes.txt, okapiform?"],
			["assistant", 'Let me read the notes, zebracorn.\n→ run_shell_command {"command":"cat notes.txt","description":"show the notes"}'],
			["tool", expect.stringContaining("the secret word is quokkaberry")],
			["assistant", "The notes say the secret word is quokkaberry."],
		]);
		const carried = parseFile(CARRIED);
		expect(carried.state.header?.id).toBe("7e1c9a40-5b2d-4f31-8c6e-0d9b2a4f1e57");
		expect(searchable(carried.entries).slice(0, 4)).toEqual(searchable(legacy.entries));
		expect(searchable(carried.entries).slice(4)).toEqual([
			["user", "legacy follow-up, okapiform?"],
			["assistant", "Legacy chat resumed: okapiform noted."],
		]);
		const hashed = parseFile(join(HASHED, "session-2026-12-01T09-00-5b0e2f7d.json"));
		expect(hashed.title).toBe("Old notes in a hashed folder");
		expect(searchable(hashed.entries).at(-1)).toEqual(["meta", "error: API Error: quota exhausted for tapirling"]);
	});

	it("gives the empty chat a resume leaves behind no entries", () => {
		const stray = parseFile(join(CHATS, "session-2026-12-01T11-40-4a5c3cf3.jsonl"));
		expect(stray.state.header?.id).toBe("4a5c3cf3-d58b-4eeb-a3bd-524f0e2c55a6");
		expect(stray.entries).toEqual([]);
	});

	it("reads a sub-agent's chat: its task, its tools, its result as the title, its folder from `directories`", () => {
		const child = parseFile(CHILD);
		expect(child.state.header).toMatchObject({ id: "2fecca0c-e4af-4399-aa0d-9f228cdf74ea", cwd: "/home/user/proj" });
		expect(child.title).toBe('{ "response": "The secret word is quokkaberry, says the helper." }');
		const text = searchable(child.entries);
		expect(text[0]).toEqual(["user", "Read notes.txt and report the secret word, pangolinstar."]);
		expect(text).toContainEqual(["tool", expect.stringContaining("the secret word is quokkaberry")]);
		expect(text.some(([role, t]) => role === "assistant" && t.includes("complete_task"))).toBe(true);
		const parent = searchable(parseFile(PARENT).entries);
		expect(parent).toContainEqual(["assistant", expect.stringContaining("→ invoke_agent")]);
		expect(parent.at(-1)).toEqual(["assistant", "The helper found the word quokkaberry."]);
	});
});

describe("Gemini CLI records", () => {
	it("keeps the last record of a message id, in the place of its first", () => {
		const call = { id: "c1", name: "read_file", args: { file_path: "a.txt" }, status: "success" };
		const { entries } = parseText(
			lines(
				META,
				user("u1", "read a.txt"),
				{ $set: { lastUpdated: "x" } },
				model("m1", "Reading."),
				model("m1", "Reading.", {
					toolCalls: [{ ...call, result: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "alpha beta" } } }] }],
				}),
				{ id: "u2", type: "user", content: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "alpha beta" } } }] },
				model("m2", "Done."),
			),
		);
		expect(searchable(entries)).toEqual([
			["user", "read a.txt"],
			["assistant", 'Reading.\n→ read_file {"file_path":"a.txt"}'],
			["tool", "alpha beta"],
			["assistant", "Done."],
		]);
		for (let i = 1; i < entries.length; i++) expect(entries[i].parentId).toBe(entries[i - 1].id);
		expect([...branchStates(entries).values()].every((s) => s === "active")).toBe(true);
	});

	it("indexes notices of the CLI as meta, never the model's thoughts", () => {
		const { entries } = parseText(
			lines(
				META,
				user("u1", "hello"),
				model("m1", "", {
					content: [{ text: "secret pondering", thought: true }, { text: "Hi there." }],
					thoughts: [{ subject: "Musing", description: "hidden musing", timestamp: "t" }],
				}),
				{ id: "i1", type: "info", content: "Switched to fallback model" },
				{ id: "w1", type: "warning", content: [{ text: "Loop detected" }] },
				{ id: "e1", type: "error", content: "API Error: 429 Too Many Requests" },
			),
		);
		const text = searchable(entries);
		expect(text).toEqual([
			["user", "hello"],
			["assistant", "Hi there."],
			["meta", "Switched to fallback model"],
			["meta", "warning: Loop detected"],
			["meta", "error: API Error: 429 Too Many Requests"],
		]);
		expect(JSON.stringify(text)).not.toMatch(/pondering|musing/);
	});

	it("counts bad lines and unknown records, and keeps the chain through an unknown message type", () => {
		const { entries, malformedLines, unknownRecords } = parseText(
			lines(META, user("u1", "one"), "{not json", { $future: true }, { id: "x1", type: "hologram", content: "?" }, model("m1", "two")),
		);
		expect(malformedLines).toBe(1);
		expect(unknownRecords).toBe(2);
		expect(searchable(entries)).toEqual([
			["user", "one"],
			["assistant", "two"],
		]);
		for (let i = 1; i < entries.length; i++) expect(entries[i].parentId).toBe(entries[i - 1].id);
	});

	it("leaves rewound messages on an abandoned branch; a rewind at the end makes the message before it the leaf", () => {
		const rewound = parseText(
			lines(META, user("u1", "first"), model("m1", "answer one"), user("u2", "second"), model("m2", "answer two"), { $rewindTo: "u2" }),
		);
		expect(stateOf(rewound.entries, "first")).toBe("active");
		expect(stateOf(rewound.entries, "answer one")).toBe("active");
		expect(stateOf(rewound.entries, "second")).toBe("abandoned");
		expect(stateOf(rewound.entries, "answer two")).toBe("abandoned");
		const again = parseText(
			lines(
				META,
				user("u1", "first"),
				model("m1", "answer one"),
				user("u2", "second"),
				{ $rewindTo: "u2" },
				user("u3", "third"),
				model("m3", "three"),
			),
		);
		const third = again.entries.find((e) => e.id === "u3")!;
		expect(third.parentId).toBe("m1");
		expect(stateOf(again.entries, "second")).toBe("abandoned");
		expect(stateOf(again.entries, "three")).toBe("active");
		// A rewind to an id the chat does not hold empties it (as the CLI does): everything is abandoned.
		const emptied = parseText(lines(META, user("u1", "first"), model("m1", "answer one"), { $rewindTo: "nope" }));
		expect(stateOf(emptied.entries, "first")).toBe("abandoned");
		// A rewound message written again rejoins the chat at its end.
		const back = parseText(lines(META, user("u1", "first"), user("u2", "second"), { $rewindTo: "u1" }, user("u1", "first, again")));
		expect(stateOf(back.entries, "first, again")).toBe("active");
		expect(stateOf(back.entries, "second")).toBe("abandoned");
	});

	it("takes a `$set.messages` checkpoint as the whole conversation: messages it drops are abandoned", () => {
		const { entries, state, title } = parseText(
			lines(
				META,
				user("u1", "first"),
				model("m1", "answer one"),
				user("u2", "a failed turn"),
				{ $set: { messages: [user("u1", "first"), model("m1", "answer one")], lastUpdated: "x" } },
				user("u3", "retry"),
				{ $set: { summary: "A chat with a retry", memoryScratchpad: { version: 1 } } },
			),
		);
		expect(title).toBe("A chat with a retry");
		expect(state.header?.title).toBe("A chat with a retry");
		expect(stateOf(entries, "a failed turn")).toBe("abandoned");
		expect(stateOf(entries, "retry")).toBe("active");
		expect(entries.find((e) => e.id === "u3")?.parentId).toBe("m1");
	});

	it("reads a compression as 0.61.0 writes it: a checkpoint whose summary stands in for the messages before it, compacted", () => {
		const ctx = user("c0", "<session_context>\nThis is the Gemini CLI.\n</session_context>");
		const snapshot = user("s1", "<state_snapshot>the walrus notes were read</state_snapshot>");
		const ack = { id: "a1", timestamp: "t", type: "gemini", content: [{ text: "Got it. Thanks for the additional context!" }] };
		const before = [ctx, user("u1", "what is in notes.txt?"), model("m1", "The notes talk about the walrus.")];
		const text = lines(
			META,
			...before,
			// a resume: the CLI's new chat, then the conversation restored
			META,
			{ $set: { messages: [ctx] } },
			{ $set: { sessionId: "s-1" } },
			{ $set: { messages: before } },
			// the compression: the conversation is now the summary and the acknowledgement
			{ $set: { messages: [ctx, snapshot, ack] } },
			user("u2", "after the compression, the narwhal"),
			model("m2", "Narwhal noted."),
			// another resume, and a rewind that leaves the CLI's context out of the checkpoint
			META,
			{ $set: { messages: [ctx] } },
			{ $set: { messages: [ctx, snapshot, ack, user("u2", "after the compression, the narwhal"), model("m2", "Narwhal noted.")] } },
			user("u3", "a question taken back"),
			{ $rewindTo: "u3" },
			{ $set: { messages: [snapshot, ack, user("u2", "after the compression, the narwhal"), model("m2", "Narwhal noted.")] } },
			user("u4", "after the rewind, the capybara"),
		);
		const { entries, unknownRecords } = parseText(text);
		expect(unknownRecords).toBeUndefined();
		expect(stateOf(entries, "what is in notes.txt?")).toBe("compacted");
		expect(stateOf(entries, "talk about the walrus")).toBe("compacted");
		const summary = entries.find((e) => e.type === "compaction")!;
		expect(entryText(summary)).toMatchObject({ role: "summary", body: "<state_snapshot>the walrus notes were read</state_snapshot>" });
		expect(stateOf(entries, "the walrus notes were read")).toBe("active");
		expect(stateOf(entries, "the narwhal")).toBe("active");
		expect(stateOf(entries, "taken back")).toBe("abandoned");
		expect(stateOf(entries, "the capybara")).toBe("active");
		// The CLI's fixed acknowledgement is not searchable; each message is indexed once.
		expect(JSON.stringify(searchable(entries))).not.toContain("Got it");
		expect(searchable(entries).filter(([, t]) => t.includes("narwhal"))).toHaveLength(1);
		// Without the <state_snapshot> wrapper, the acknowledgement still says it was a compression.
		const bare = parseText(
			lines(
				META,
				...before,
				{ $set: { messages: [ctx, { ...snapshot, content: [{ text: "a plain summary" }] }, ack] } },
				user("u2", "next"),
			),
		);
		expect(stateOf(bare.entries, "talk about the walrus")).toBe("compacted");
		expect(stateOf(bare.entries, "a plain summary")).toBe("active");
	});

	it("reads what the person saw, calls written only as parts, and responses to calls it never saw", () => {
		const { entries } = parseText(
			lines(
				META,
				{ id: "u1", type: "user", content: [{ text: "expanded @file body" }], displayContent: "look at @notes.md" },
				{ id: "m1", type: "gemini", content: [{ functionCall: { name: "glob", args: { pattern: "*.md" } } }] },
				{
					id: "u2",
					type: "user",
					content: [{ functionResponse: { id: "g1", name: "glob", response: { error: "no files, narwhalish" } } }],
				},
				{ id: "u3", type: "user", content: [{ text: "see" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }] },
			),
		);
		expect(searchable(entries)).toEqual([
			["user", "look at @notes.md"],
			["assistant", '→ glob {"pattern":"*.md"}'],
			["tool", "no files, narwhalish"],
			["user", "see\n[image/png]"],
		]);
		expect((entries[2].raw.message as { isError: boolean }).isError).toBe(true);
	});
});

describe("Gemini CLI folders", () => {
	it("finds `$GEMINI_CLI_HOME/.gemini` else `~/.gemini`", () => {
		expect(geminiDir({ HOME: "/h" })).toBe(join("/h", ".gemini"));
		expect(geminiDir({ HOME: "/h", GEMINI_CLI_HOME: "/g" })).toBe(join("/g", ".gemini"));
	});

	it("walks each project's chats and sub-agents, a legacy .json once, and names each project's folder", async () => {
		const root = join(HOME, ".gemini", "tmp");
		const walk = await fileSource([{ path: root, layout: "gemini", agent: "gemini" }]).walk();
		const files = walk.files.map((f) => ({ ...f, path: f.path.slice(root.length + 1) }));
		expect(files.map((f) => f.path).sort()).toEqual(
			[
				"f2d6d41259a7aa558085d25afc95143c43f793b59cae81bca73c808446a53e19/chats/session-2026-12-01T09-00-5b0e2f7d.json",
				"proj/chats/d46b784e-2a92-408e-b3c6-6e32f3787118/2fecca0c-e4af-4399-aa0d-9f228cdf74ea.jsonl",
				"proj/chats/session-2026-12-01T09-00-7e1c9a40.jsonl",
				"proj/chats/session-2026-12-01T11-33-4a5c3cf3.jsonl",
				"proj/chats/session-2026-12-01T11-33-d46b784e.jsonl",
				"proj/chats/session-2026-12-01T11-39-7e1c9a40.jsonl",
				"proj/chats/session-2026-12-01T11-40-4a5c3cf3.jsonl",
			].sort(),
		);
		expect(walk.completeRoots).toEqual([root]);
		const child = walk.files.find((f) => f.path === CHILD)!;
		expect(child).toMatchObject({ kind: "subagent", spawnedBy: PARENT, agent: "gemini", cwd: "/home/user/proj" });
		expect(walk.files.find((f) => f.path.endsWith("5b0e2f7d.json"))?.cwd).toBe("/home/user/old");
		expect(sessionPathInRoots(LEGACY, [root])).toBe(LEGACY);
	});

	it("indexes a Gemini home: hits, agent, resume command, title, project, branch state, sub-agent link", async () => {
		const home = tempDir("gemini-home");
		cpSync(HOME, home, { recursive: true });
		const env = { HOME: join(home, "nobody"), GEMINI_CLI_HOME: home, PI_CODING_AGENT_DIR: join(home, "pi") };
		const cli = async (argv: string[]) => {
			let stdout = "";
			const code = await run(argv, { stdout: (t) => (stdout += t), stderr: () => {}, env, isTTY: false });
			return { code, json: JSON.parse(stdout) };
		};
		const index = await cli(["index", "--json"]);
		expect(index.code).toBe(0);
		expect(index.json.sync).toMatchObject({ malformedLines: 0, unknownRecords: 0 });
		const main = "4a5c3cf3-d58b-4eeb-a3bd-524f0e2c55a6";
		const wombat = (await cli(["search", "wombatine", "--json"])).json.results;
		expect(wombat).toHaveLength(1);
		expect(wombat[0]).toMatchObject({
			sessionId: main,
			agent: "gemini",
			resumeHint: `cd /home/user/proj && gemini --resume ${main}`,
			name: "Reading the secret notes",
			cwd: join("/home/user/proj"),
			branchState: "abandoned",
		});
		const capy = (await cli(["search", "capybarine", "--json"])).json.results[0];
		expect(capy).toMatchObject({ sessionId: main, branchState: "active" });
		const helper = (await cli(["search", "pangolinstar", "--json"])).json.results;
		expect(helper.map((r: { sessionId: string; kind: string }) => [r.sessionId, r.kind]).sort()).toEqual(
			[
				["2fecca0c-e4af-4399-aa0d-9f228cdf74ea", "subagent"],
				["d46b784e-2a92-408e-b3c6-6e32f3787118", "session"],
			].sort(),
		);
		const child = helper.find((r: { kind: string }) => r.kind === "subagent");
		expect(child.spawnedBy).toBe(join(home, ".gemini", "tmp", "proj", "chats", "session-2026-12-01T11-33-d46b784e.jsonl"));
		// The invoke_agent call names the sub-agent's chat (its agentId): the parent's entry that spawned it.
		expect(child.spawnedByEntryId).toMatch(/#invoke_agent/);
		const okapi = (await cli(["search", "okapiform", "--json"])).json.results;
		expect(okapi.map((r: { path: string }) => r.path.endsWith(".jsonl"))).toEqual([true]);
		const tapir = (await cli(["search", "tapirling", "--json"])).json.results[0];
		expect(tapir).toMatchObject({
			sessionId: "5b0e2f7d-31c4-4a8e-9f60-2d7c1e8a4b93",
			cwd: "/home/user/old",
			name: "Old notes in a hashed folder",
		});
		const left = await cli(["search", "capybarine", "--no-agent", "gemini", "--json"]);
		expect(left.json.results).toEqual([]);
	});
});
