/**
 * An agent's files that lookback cannot read yet are named in the sync report with the agent and the version, never
 * skipped in silence: a Claude Code session in a version newer than any tested (read as far as understood), and an
 * Amp thread none of whose records is understood. In the CLI's `index` report (text and JSON) and in the sync state
 * the MCP server's and the tool's replies carry.
 */

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { syncState } from "../../src/core/replies/sync-state.js";
import { lookbackJson } from "../cli-json.js";

const SESSION = "0b8f3c2e-1111-4a2b-9c3d-5e6f7a8b9c0d";
const THREAD = "T-019b9d03-62e3-772f-9780-3e637f90eaec";
const dirs: string[] = [];
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function home() {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), "not-read-")));
	dirs.push(dir);
	const project = join(dir, ".claude", "projects", "-p");
	mkdirSync(project, { recursive: true });
	const line = (uuid: string, parentUuid: string | null, message: unknown) =>
		JSON.stringify({
			type: "user",
			sessionId: SESSION,
			uuid,
			parentUuid,
			version: "99.0.0",
			cwd: "/p",
			timestamp: "2026-12-01T00:00:00Z",
			message,
		});
	writeFileSync(join(project, `${SESSION}.jsonl`), `${line("u1", null, { role: "user", content: "the wombat tunes" })}\n`);
	const threads = join(dir, "data", "amp", "threads");
	mkdirSync(threads, { recursive: true });
	// A thread whose every block is of a type this lookback does not know.
	writeFileSync(
		join(threads, `${THREAD}.json`),
		JSON.stringify({ id: THREAD, messages: [{ role: "user", content: [{ type: "hologram", bytes: "…" }] }] }),
	);
	return { HOME: dir, XDG_DATA_HOME: join(dir, "data"), CLAUDE_CONFIG_DIR: join(dir, ".claude") };
}

describe("files lookback cannot read yet", () => {
	it("are named in the index report, text and JSON, with their agent and version", async () => {
		const env = home();
		const reply = await lookbackJson(["index"], env);
		expect(reply.sync.notReadFiles).toBe(2);
		expect(reply.sync.notRead).toEqual(
			expect.arrayContaining([
				{
					path: join(env.CLAUDE_CONFIG_DIR, "projects", "-p", `${SESSION}.jsonl`),
					agent: "claude",
					version: "Claude Code 99.0.0",
					why: "newer-version",
				},
				{ path: join(env.XDG_DATA_HOME, "amp", "threads", `${THREAD}.json`), agent: "amp", why: "nothing-read" },
			]),
		);
		// The sync state beside a reply of the MCP server and the tool names them too.
		expect(syncState(reply.sync).notRead).toHaveLength(2);

		const again = home();
		let stdout = "";
		const code = await run(["index"], { stdout: (t) => (stdout += t), stderr: () => undefined, env: again, isTTY: false });
		expect(code).toBe(0);
		expect(stdout).toContain(
			`not read in full: ${join(again.CLAUDE_CONFIG_DIR, "projects", "-p", `${SESSION}.jsonl`)} (Claude Code 99.0.0)`,
		);
		expect(stdout).toContain(`not read: ${join(again.XDG_DATA_HOME, "amp", "threads", `${THREAD}.json`)} (amp, no record understood)`);
	});
});
