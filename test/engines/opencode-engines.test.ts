/**
 * OpenCode's database is read through lookback's wasm engine whatever engine holds the index: the CLI on Node 20
 * (wasm), Node 22 (node:sqlite) and Bun (bun:sqlite) each find a commit that is only in the WAL of a database another
 * process holds open for writing, and leave nothing beside it.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addMessage, addPart, addSession, fixtureDataDir, openForWrite } from "../agents/opencode-rows.js";
import { BUN, NODE22 } from "../agents.js";
import { tempDir } from "../helpers.js";

const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");

const runs = [
	{ name: "Node 20, wasm", runtime: process.execPath, engine: "wasm" },
	...(NODE22 ? [{ name: "Node 22, node:sqlite", runtime: NODE22, engine: "builtin" }] : []),
	...(BUN ? [{ name: "Bun, bun:sqlite", runtime: BUN, engine: "builtin" }] : []),
];

describe("OpenCode's database under every runtime and engine", () => {
	it("has Node 22 and Bun to run on this machine", () => {
		expect(runs.map((r) => r.name)).toEqual(["Node 20, wasm", "Node 22, node:sqlite", "Bun, bun:sqlite"]);
	});

	it.each(runs)("$name: finds a commit only in the WAL, creating nothing beside the database", async ({ runtime, engine }) => {
		const home = tempDir("opencode-engines");
		const dir = fixtureDataDir(join(home, "data"));
		const db = await openForWrite(join(dir, "opencode.db"));
		try {
			addSession(db, { id: "ses_engines", title: "Read on every engine" });
			addMessage(db, "ses_engines", "msg_e1", 1_796_500_000_000, { role: "user", time: { created: 1_796_500_000_000 } });
			addPart(db, "ses_engines", "msg_e1", "prt_e1", { type: "text", text: "the caracal waits in the WAL" });
			const names = readdirSync(dir).sort();
			const out = execFileSync(
				runtime,
				[CLI, "search", "caracal", "--engine", engine, "--index", join(home, "index.db"), "--agent-dir", join(home, "pi"), "--json"],
				{ encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: home, XDG_DATA_HOME: join(home, "data") } },
			);
			const reply = JSON.parse(out) as { results: { sessionId: string; agent: string }[]; sync: { added: number } };
			expect(reply.sync.added).toBe(3);
			expect(reply.results[0]).toMatchObject({ sessionId: "ses_engines", agent: "opencode" });
			expect(readdirSync(dir).sort()).toEqual(names);
		} finally {
			db.close();
		}
	});
});
