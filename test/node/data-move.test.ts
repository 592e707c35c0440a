import { spawn } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { moveData, sameFiles } from "../../src/node/data-move.js";
import { IndexLocks } from "../../src/node/index-locks.js";
import { indexPlace, lookbackDataDir } from "../../src/node/index-path.js";
import { FIXTURES, tempDir } from "../helpers.js";

async function cli(argv: string[], env: Record<string, string | undefined>) {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, isTTY: false });
	return { code, stdout, stderr };
}

/** A folder like lookback's of before 0.2: an index file and an archive of many files. */
function oldData(files: number, size: number): string {
	const dir = join(tempDir("old"), "lookback");
	mkdirSync(join(dir, "archive", "files"), { recursive: true });
	mkdirSync(join(dir, "index.db.locks", "shared"), { recursive: true });
	writeFileSync(join(dir, "index.db"), Buffer.alloc(size, 7));
	writeFileSync(join(dir, "index.db.locks", "indexer-complete"), "");
	for (let i = 0; i < files; i++) writeFileSync(join(dir, "archive", "files", `${i}.zst`), Buffer.alloc(size, i % 251));
	return dir;
}

describe("lookback's data folder", () => {
	it("is the platform's data folder, LOOKBACK_HOME or the variables of before winning", () => {
		expect(lookbackDataDir({ HOME: "/h" }, "linux")).toBe("/h/.local/share/lookback");
		expect(lookbackDataDir({ HOME: "/h", XDG_DATA_HOME: "/x" }, "linux")).toBe("/x/lookback");
		expect(lookbackDataDir({ HOME: "/h", XDG_DATA_HOME: "rel" }, "linux")).toBe("/h/.local/share/lookback");
		expect(lookbackDataDir({ HOME: "/h" }, "darwin")).toBe("/h/Library/Application Support/lookback");
		expect(lookbackDataDir({ HOME: "/h", LOCALAPPDATA: "/l" }, "win32")).toBe(join("/l", "lookback"));
		expect(lookbackDataDir({ HOME: "/h", LOOKBACK_HOME: "/mine" }, "linux")).toBe("/mine");
		const home = tempDir("home");
		expect(indexPlace({ env: { HOME: home } })).toEqual({ path: join(home, ".local/share/lookback/index.db"), by: "data folder" });
		expect(indexPlace({ env: { HOME: home, LOOKBACK_INDEX: "/i.db" } })).toMatchObject({ path: "/i.db", by: "LOOKBACK_INDEX" });
		expect(indexPlace({ env: { HOME: home, PI_CODING_AGENT_DIR: "/a" } })).toMatchObject({ path: "/a/lookback/index.db" });
		expect(indexPlace({ agentDir: "/b", env: { HOME: home } })).toMatchObject({ path: "/b/lookback/index.db", by: "--agent-dir" });
	});

	it("an index that finds nothing names every folder and variable it looked at, and makes no agent's folder", async () => {
		const home = tempDir("home");
		const r = await cli(["index"], { HOME: home });
		expect(r.code).toBe(0);
		for (const what of [
			"Pi:",
			"Claude Code:",
			"Codex:",
			"Gemini CLI:",
			"OpenCode:",
			"CLAUDE_CONFIG_DIR=(unset)",
			"CODEX_HOME",
			"OPENCODE_DB",
		])
			expect(r.stdout).toContain(what);
		expect(r.stdout).toContain(join(home, ".claude", "projects"));
		expect(readdirSync(home)).toEqual([".local"]);
		expect(existsSync(join(home, ".local", "share", "lookback", "index.db"))).toBe(true);
	});

	it("moves an index and archive of before 0.2 without loss, a gone session still found, the old place a link", async () => {
		const home = tempDir("home");
		const agentDir = join(home, ".pi", "agent");
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		expect((await cli(["index", "--agent-dir", agentDir], { HOME: home })).code).toBe(0);
		// The agent deletes a session: only the archive holds it now.
		const project = join(agentDir, "sessions", "--home-dev-projects-webshop--");
		const gone = readdirSync(project)[0];
		const before = readFileSync(join(project, gone));
		rmSync(join(project, gone));
		const r = await cli(["browse", "--gone", "only", "--json"], { HOME: home });
		expect(r.stderr).toContain("moved the index and archive from");
		const moved = join(home, ".local", "share", "lookback");
		expect(JSON.parse(r.stdout).sessions).toHaveLength(1);
		expect(lstatSync(join(agentDir, "lookback")).isSymbolicLink()).toBe(true);
		expect(existsSync(join(moved, "archive"))).toBe(true);
		const restored = await cli(["restore", JSON.parse(r.stdout).sessions[0].sessionId], { HOME: home });
		expect(restored.stderr).toBe("");
		expect(restored.code).toBe(0);
		expect(readFileSync(join(project, gone)).equals(before)).toBe(true);
		expect((await cli(["stats", "--json"], { HOME: home })).stdout).toContain(join(moved, "index.db"));
	});

	it("leaves the data in place while another process holds the index, and moves it later", () => {
		const old = oldData(3, 1000);
		const to = join(tempDir("data"), "lookback");
		const reader = new IndexLocks(join(old, "index.db"));
		expect(reader.shared()).toBe(true);
		expect(moveData(old, to).outcome).toBe("in-use");
		expect(existsSync(to)).toBe(false);
		reader.release("none");
		const copy = join(tempDir("copy"), "lookback");
		cpSync(old, copy, { recursive: true });
		expect(moveData(old, to, { copy: true })).toMatchObject({ outcome: "moved", how: "copy" });
		expect(sameFiles(copy, to)).toBe(true);
		expect(lstatSync(old).isSymbolicLink()).toBe(true);
	});

	it("loses nothing when the copying process is killed, and the next move completes", async () => {
		const old = oldData(400, 64 * 1024);
		const copy = join(tempDir("copy"), "lookback");
		cpSync(old, copy, { recursive: true });
		const to = join(tempDir("data"), "lookback");
		// The move in a process of its own, from the sources bundled.
		const bundle = join(tempDir("bundle"), "move.mjs");
		buildSync({
			stdin: {
				contents: `import { moveData } from "./src/node/data-move.ts"; moveData(process.argv[2], process.argv[3], { copy: true });`,
				resolveDir: process.cwd(),
				loader: "ts",
			},
			bundle: true,
			platform: "node",
			format: "esm",
			outfile: bundle,
		});
		const child = spawn(process.execPath, [bundle, old, to], { stdio: "ignore" });
		const temp = `${to}.moving-${child.pid}`;
		const deadline = Date.now() + 20_000;
		while (
			!(existsSync(join(temp, "archive", "files")) && readdirSync(join(temp, "archive", "files")).length > 20) &&
			Date.now() < deadline
		)
			await new Promise((r) => setTimeout(r, 2));
		child.kill("SIGKILL");
		await new Promise((r) => child.on("exit", r));
		expect(existsSync(temp)).toBe(true);
		expect(existsSync(to)).toBe(false);
		expect(sameFiles(copy, old)).toBe(true);
		expect(readdirSync(join(old, "archive", "files"))).toHaveLength(400);
		// The dead process's locks are reaped; the next move removes its partial copy and completes.
		expect(moveData(old, to, { copy: true })).toMatchObject({ outcome: "moved", how: "copy" });
		expect(existsSync(temp)).toBe(false);
		expect(sameFiles(copy, to)).toBe(true);
		expect(readdirSync(join(to, "archive", "files"))).toHaveLength(400);
	});
});
