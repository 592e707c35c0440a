/**
 * Codex CLI end to end, three forms of its rollouts that the unit tests knew only from built lines or copies, here
 * written by the real CLI (pinned in scripts/agents/ensure-codex.mjs) against the fake Responses API:
 * - apply_patch: a custom (freeform) tool call whose input is the patch. 0.171.0 offers the tool only to a model it
 *   knows (its request's `tools` has `{type: "custom", name: "apply_patch"}` for gpt-5.5, none for "fake"), so those
 *   runs name one (`-m gpt-5.5`), which the fake server answers all the same.
 * - a fork, `codex exec fork <id>`: 0.171.0 writes only the fork's own records (`history_mode: "paginated"`), its
 *   session_meta naming the parent (`forked_from_id`) and the part of the parent's rollout it goes on from
 *   (`history_base`); nothing of the parent is replayed into the fork's file.
 * - `.jsonl.zst`: a background worker compresses rollouts last written 7 days ago or more, only with the
 *   `local_thread_store_compression` feature on (under development in 0.171.0, off by default; see
 *   compressCodexRollout); a resumed one is written out plain again before Codex appends to it.
 */

import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decompress } from "fzstd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNodeIndex } from "../../src/node/open.js";
import { lookbackJson } from "../cli-json.js";
import { codexInstalled, compressCodexRollout, runCodex } from "./codex-run.js";
import { fakeCodexConfig, startFakeCodexModel } from "./fake-codex-server.mjs";

let fake: Awaited<ReturnType<typeof startFakeCodexModel>>;
const dirs: string[] = [];

/** A Codex home pointing at the fake server, lookback's home and a project, removed after the file. */
function homes() {
	const made = (name: string) => {
		const dir = realpathSync(mkdtempSync(join(tmpdir(), `codex-${name}-`)));
		dirs.push(dir);
		return dir;
	};
	const codex = made("home");
	const lookback = made("lookback");
	writeFileSync(join(codex, "config.toml"), fakeCodexConfig(fake.url));
	const env = { HOME: lookback, CODEX_HOME: codex, CLAUDE_CONFIG_DIR: join(lookback, ".claude") };
	return {
		at: { cwd: made("project"), home: codex },
		env,
		search: (argv: string[]) => lookbackJson(["search", ...argv, "--agent", "codex"], env),
	};
}

/** A patch in apply_patch's form, as the fake model's prompt carries it (base64: the prompt itself holds none of its words). */
const patch = (text: string) => `PATCH ${Buffer.from(text).toString("base64")}`;

type Hit = { sessionId: string; path: string; hits: number };

beforeAll(async () => {
	fake = await startFakeCodexModel();
});
afterAll(async () => {
	await fake?.close();
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!codexInstalled())("Codex CLI's apply_patch and forks, written by the real CLI", () => {
	let h: ReturnType<typeof homes>;
	let threadId = "";
	let forkId = "";
	beforeAll(async () => {
		h = homes();
		const add = patch("*** Begin Patch\n*** Add File: notes/quokka.md\n+The quokka hums marmalade tunes.\n*** End Patch\n");
		const first = await runCodex(["-m", "gpt-5.5", `Keep the wallaby notes. ${add}`], h.at);
		expect(first.code, first.stderr).toBe(0);
		threadId = first.threadId ?? "";
		const update = patch(
			"*** Begin Patch\n*** Update File: notes/quokka.md\n@@\n-The quokka hums marmalade tunes.\n+The quokka hums marmalade and tamarind tunes.\n*** End Patch\n",
		);
		const second = await runCodex(["-m", "gpt-5.5", "resume", threadId, `Revise them. ${update}`], h.at);
		expect(second.code, second.stderr).toBe(0);
		expect(second.threadId).toBe(threadId);
		// The real CLI applied both patches.
		expect(readFileSync(join(h.at.cwd, "notes", "quokka.md"), "utf8")).toBe("The quokka hums marmalade and tamarind tunes.\n");
		const fork = await runCodex(["fork", threadId, "The fork goes on about the pangolin."], h.at);
		expect(fork.code, fork.stderr).toBe(0);
		forkId = fork.threadId ?? "";
		expect(forkId).toMatch(/^[0-9a-f-]{36}$/);
		expect(forkId).not.toBe(threadId);
	}, 600_000);

	it("indexes each patch once, as the model wrote it, in the session that ran it", async () => {
		const r = await h.search(["tamarind", "--role", "tool"]);
		expect(r.sync).toMatchObject({ unknownRecords: 0, malformedLines: 0, newVersions: [] });
		expect(r.results.map((x: Hit) => x.sessionId)).toEqual([threadId]);
		// Both patches name the marmalade (the update's removed and added line, in one call); Codex's FileChange
		// events, which repeat the file's content, are not indexed again.
		const both = await h.search(["marmalade"]);
		expect(both.results.map((x: Hit) => [x.sessionId, x.hits])).toEqual([[threadId, 2]]);
	});

	it("names the patched file among the files the session touched, twice edited, and apply_patch among its tools", async () => {
		// The fork made no call of its own: the parent's calls are counted in the parent only.
		const report = await lookbackJson(["usage", "--by", "session", "--agent", "codex"], h.env);
		const calls = Object.fromEntries(report.rows.map((r: { key: string; toolCalls: number }) => [r.key, r.toolCalls]));
		expect(calls).toEqual({ [threadId]: 2, [forkId]: 0 });
		const opened = await openNodeIndex({ env: h.env });
		try {
			const usage = opened.index.read(threadId, { usage: true }).usage;
			expect(usage?.files).toEqual([{ path: "notes/quokka.md", edits: 2 }]);
			expect(usage?.tools).toEqual([{ tool: "apply_patch", calls: 2, errors: 0 }]);
		} finally {
			opened.index.close();
		}
	});

	it("keeps the fork as a session of its own that names its parent, and the parent's turns in the parent only", async () => {
		const own = await h.search(["pangolin"]);
		expect(own.results).toHaveLength(1);
		expect(own.results[0]).toMatchObject({
			sessionId: forkId,
			kind: "session",
			parentSessionId: threadId,
			resumeHint: `codex resume ${forkId}`,
		});
		// Nothing of the parent is in the fork's file (see above); were it replayed, as a sub-agent's is, the hits below
		// would still be one.
		expect(readFileSync(own.results[0].path, "utf8")).not.toContain("wallaby");
		// A word only in the parent's turns: one session, one hit (its prompt, which Codex writes twice, once).
		const parent = await h.search(["wallaby", "--role", "user"]);
		expect(parent.results.map((x: Hit) => [x.sessionId, x.hits])).toEqual([[threadId, 1]]);
		const patched = await h.search(["tamarind"]);
		expect(patched.results.map((x: Hit) => x.sessionId)).toEqual([threadId]);
	});
});

describe.skipIf(!codexInstalled())("Codex CLI's compressed rollouts (.jsonl.zst), written by the real CLI", () => {
	let h: ReturnType<typeof homes>;
	let threadId = "";
	let plain = "";
	let entryId = "";
	beforeAll(async () => {
		h = homes();
		const first = await runCodex(["The compressed session remembers the dugong."], h.at);
		expect(first.code, first.stderr).toBe(0);
		threadId = first.threadId ?? "";
		// Indexed while plain, as lookback meets a rollout first.
		const before = await h.search(["dugong"]);
		expect(before.results.map((x: Hit) => [x.sessionId, x.hits])).toEqual([[threadId, 1]]);
		plain = before.results[0].path;
		entryId = before.results[0].entryId;
		expect(plain).toMatch(/\.jsonl$/);
		// Last written 8 days ago: cold enough for Codex's worker.
		const old = new Date(Date.now() - 8 * 24 * 3600 * 1000);
		utimesSync(plain, old, old);
		expect(await compressCodexRollout(plain, h.at)).toBe(true);
	}, 600_000);

	it("reads the .zst the CLI wrote: the same session, found once, the plain file it replaced left out", async () => {
		const r = await h.search(["dugong"]);
		expect(r.sync).toMatchObject({ added: 1, filesParsed: 1, purged: 1, unknownRecords: 0, malformedLines: 0 });
		expect(r.results).toHaveLength(1);
		// Entries are named by their offsets in the inflated bytes, the same as in the plain file.
		expect(r.results[0]).toMatchObject({
			sessionId: threadId,
			path: `${plain}.zst`,
			entryId,
			hits: 1,
			resumeHint: `codex resume ${threadId}`,
		});
	});

	it("reads nothing again on a later sync of the compressed file", async () => {
		const r = await h.search(["dugong"]);
		expect(r.sync).toMatchObject({ added: 0, grown: 0, rewritten: 0, filesParsed: 0, entriesIndexed: 0, purged: 0 });
		expect(r.results.map((x: Hit) => [x.sessionId, x.hits])).toEqual([[threadId, 1]]);
	});

	it("indexes one of the two while both the plain file and the .zst are there", async () => {
		// What Codex leaves for a moment: its resume writes the plain file out before it removes the .zst (and its
		// compression publishes the .zst before it removes the plain file).
		writeFileSync(plain, decompress(readFileSync(`${plain}.zst`)));
		try {
			const both = await h.search(["dugong"]);
			expect(both.results).toHaveLength(1);
			expect(both.results[0]).toMatchObject({ sessionId: threadId, path: plain, hits: 1 });
		} finally {
			rmSync(plain);
		}
		const zst = await h.search(["dugong"]);
		expect(zst.results.map((x: Hit) => [x.sessionId, x.path, x.hits])).toEqual([[threadId, `${plain}.zst`, 1]]);
	});

	it("finds the session once after a resume writes it out plain again", async () => {
		const resumed = await runCodex(["resume", threadId, "After the resume we talk about the manatee."], h.at);
		expect(resumed.code, resumed.stderr).toBe(0);
		expect([existsSync(plain), existsSync(`${plain}.zst`)]).toEqual([true, false]);
		const r = await h.search(["dugong"]);
		expect(r.results.map((x: Hit) => [x.sessionId, x.path, x.hits])).toEqual([[threadId, plain, 1]]);
		const added = await h.search(["manatee"]);
		expect(added.results.map((x: Hit) => x.sessionId)).toEqual([threadId]);
	});
});
