/**
 * A careless `--index` (or `LOOKBACK_INDEX`): a path that holds someone's file, another program's database, or
 * lies in a folder that does not exist is refused — exit 2, one line — and nothing is renamed, written or created.
 * Only lookback's own default place is ever set aside and rebuilt.
 */

import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { loadEngine } from "../../src/node/engine.js";
import { FIXTURES, tempDir } from "../helpers.js";

async function cli(argv: string[], env: Record<string, string> = {}) {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: "/nonexistent-lookback-home", ...env },
		isTTY: false,
	});
	return { code, stdout, stderr };
}

function agentDir(): string {
	const dir = join(tempDir("agent"), "agent");
	mkdirSync(dir, { recursive: true });
	cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
	return dir;
}

/** Every file under a folder with its size, inode and bytes: what "nothing changed" means. */
function snapshotOf(dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of readdirSync(dir, { recursive: true }) as string[]) {
		const st = statSync(join(dir, name));
		out[name] = st.isFile() ? `${st.ino}:${st.size}:${readFileSync(join(dir, name)).toString("base64")}` : `dir:${st.ino}`;
	}
	return out;
}

describe("an index path a person names", () => {
	it("refuses a file that is not a lookback index, by --index and by LOOKBACK_INDEX, touching nothing", async () => {
		const sql = await loadEngine();
		const appDb = new sql.Database();
		appDb.run("CREATE TABLE users(name TEXT); INSERT INTO users VALUES ('alice')");
		const files: Record<string, Uint8Array | string> = {
			"app.sqlite": appDb.export(),
			"notes.txt": "my notes, not an index\n",
			"empty.db": "",
			passwd: "root:x:0:0:root:/root:/bin/bash\n",
		};
		const agent = agentDir();
		for (const [name, content] of Object.entries(files)) {
			for (const how of ["option", "env"] as const) {
				const dir = tempDir("user");
				const path = join(dir, name);
				writeFileSync(path, content);
				const before = snapshotOf(dir);
				for (const command of [["stats"], ["index"], ["search", "retry"], ["browse"]]) {
					const r =
						how === "option"
							? await cli([...command, "--agent-dir", agent, "--index", path])
							: await cli([...command, "--agent-dir", agent], { LOOKBACK_INDEX: path });
					expect(r.code, `${name} ${how} ${command[0]}`).toBe(2);
					expect(r.stdout).toBe("");
					expect(r.stderr.trimEnd().split("\n"), r.stderr).toHaveLength(1);
					expect(r.stderr).toContain(`refusing the index ${path}`);
					expect(snapshotOf(dir), `${name} ${how} ${command[0]}`).toEqual(before);
				}
			}
		}
	});

	it("makes no folder for a path whose folder does not exist", async () => {
		const dir = tempDir("user");
		const path = join(dir, "no", "such", "folder", "index.db");
		const r = await cli(["index", "--agent-dir", agentDir(), "--index", path]);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/^lookback: refusing the index .*does not exist \(lookback makes no folder for an index path it is given\)/);
		expect(readdirSync(dir)).toEqual([]);
	});

	it("makes a new index at a free path in a folder that exists, and opens it again", async () => {
		const agent = agentDir();
		const dir = tempDir("user");
		const path = join(dir, "mine.db");
		expect((await cli(["index", "--agent-dir", agent, "--index", path])).code).toBe(0);
		const again = await cli(["search", "retry", "--agent-dir", agent, "--index", path, "--json"]);
		expect(again.code).toBe(0);
		expect(JSON.parse(again.stdout).results.length).toBeGreaterThan(0);
	});

	it("sets aside a lookback index of another schema version at a named path (lookback's own file), nothing else", async () => {
		const agent = agentDir();
		const dir = tempDir("user");
		const path = join(dir, "mine.db");
		expect((await cli(["index", "--agent-dir", agent, "--index", path])).code).toBe(0);
		const sql = await loadEngine();
		const db = new sql.Database(readFileSync(path));
		db.run("PRAGMA user_version = 99");
		writeFileSync(path, db.export());
		const r = await cli(["index", "--agent-dir", agent, "--index", path]);
		expect(r.code).toBe(0);
		expect(r.stderr + r.stdout).toContain("rebuilt");
		expect(readdirSync(dir).filter((f) => f.includes(".unusable-"))).toHaveLength(1);
	});

	it("still sets aside and rebuilds anything unusable at lookback's default place", async () => {
		const agent = agentDir();
		mkdirSync(join(agent, "lookback"));
		writeFileSync(join(agent, "lookback", "index.db"), "not a database at all".repeat(50));
		const r = await cli(["index", "--agent-dir", agent]);
		expect(r.code).toBe(0);
		expect(readdirSync(join(agent, "lookback")).filter((f) => f.includes(".unusable-"))).toHaveLength(1);
	});
});
