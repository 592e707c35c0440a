/** One `lookback search` over both agents' stores, and how omp's folders are found. */
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ompAgentDir } from "../../src/agents/omp/node/paths.js";
import { run } from "../../src/cli/main.js";
import { fileSource } from "../../src/node/file-source.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";
import { ompStore, PARENT } from "./omp-store.js";

async function cli(argv: string[], env: Record<string, string>) {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, isTTY: false });
	return { code, stdout, stderr };
}

function bothAgents() {
	const home = tempDir("both");
	ompStore(home);
	cpSync(FIXTURES, join(home, ".pi", "agent", "sessions"), { recursive: true });
	return { HOME: home };
}

describe("Pi and omp in one index", () => {
	it("finds a phrase from either agent in one search, and --agent filters", async () => {
		const env = bothAgents();
		const both = JSON.parse((await cli(["search", "amqplib OR bankers", "--json"], env)).stdout);
		expect(both.results.map((r: { sessionId: string; agent: string }) => [r.sessionId, r.agent]).sort()).toEqual(
			[
				[PARENT, "omp"],
				[SAMPLE.branched, "pi"],
			].sort(),
		);
		const omp = JSON.parse((await cli(["search", "amqplib OR bankers", "--agent", "omp", "--json"], env)).stdout);
		expect(omp.results.map((r: { sessionId: string }) => r.sessionId)).toEqual([PARENT]);
		const browse = JSON.parse((await cli(["browse", "--agent", "pi", "--json"], env)).stdout);
		expect(browse.sessions.every((s: { agent: string }) => s.agent === "pi")).toBe(true);
		expect((await cli(["search", "x", "--agent", "cursor"], env)).code).toBe(2);
	});

	it("finds omp's agent dir the way omp does", () => {
		const home = tempDir("dirs");
		expect(ompAgentDir({ HOME: home })).toBe(join(home, ".omp", "agent"));
		expect(ompAgentDir({ HOME: home, PI_CONFIG_DIR: ".omp2" })).toBe(join(home, ".omp2", "agent"));
		expect(ompAgentDir({ HOME: home, OMP_PROFILE: "work" })).toBe(join(home, ".omp", "profiles", "work", "agent"));
		const xdg = join(home, "xdg");
		expect(ompAgentDir({ HOME: home, XDG_DATA_HOME: xdg })).toBe(join(home, ".omp", "agent"));
		mkdirSync(join(xdg, "omp"), { recursive: true });
		expect(ompAgentDir({ HOME: home, XDG_DATA_HOME: xdg })).toBe(join(xdg, "omp"));
	});

	it("walks a folder named twice only once, and knows an omp file by its title slot wherever it is", async () => {
		const home = tempDir("shared");
		const store = ompStore(home);
		const sessions = join(store.agent, "sessions");
		const walk = await fileSource([
			{ path: sessions, layout: "nested", agent: "pi" },
			{ path: sessions, layout: "nested", agent: "omp" },
		]).walk();
		expect(walk.files.filter((f) => f.path === store.parentFile)).toHaveLength(1);
		// PI_CODING_AGENT_DIR pointing at omp's folder: Pi's root holds omp files, still labelled omp.
		const r = JSON.parse(
			(await cli(["search", "bankers", "--json"], { HOME: join(home, "nobody"), PI_CODING_AGENT_DIR: store.agent })).stdout,
		);
		expect(r.results[0]).toMatchObject({ sessionId: PARENT, agent: "omp", resumeHint: `omp --resume ${PARENT}` });
	});
});
