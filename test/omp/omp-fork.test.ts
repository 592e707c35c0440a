/**
 * omp's forks, written by the real omp (scripts/ensure-omp.mjs) against the fake model: `omp --fork <id>` copies the
 * session's entries with their ids into a new file that names it as `parentSession`, as Pi's forks do. The copied
 * history is found once, the fork named beside it, its usage counted once; the fork's own turn is its own.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { REPO, useFakeModel } from "../agents.js";
import { tempDir } from "../helpers.js";

const TOOLS = join(REPO, ".tools", "omp", "node_modules");
const BUN = join(TOOLS, ".bin", "bun");
const OMP = join(TOOLS, "@oh-my-pi", "pi-coding-agent", "dist", "cli.js");

const model = useFakeModel();

const MODELS = (url: string) => `providers:
  fakeprov:
    baseUrl: ${url}
    apiKey: X
    api: openai-completions
    models:
      - id: fake-1
        name: Fake
        api: openai-completions
        reasoning: false
        input: [text]
        contextWindow: 128000
        maxTokens: 4096
        cost: {input: 0, output: 0, cacheRead: 0, cacheWrite: 0}
`;

function omp(args: string[], home: string, cwd: string): Promise<{ code: number; stderr: string }> {
	return new Promise((resolve) => {
		const env: Record<string, string | undefined> = { ...process.env, HOME: home, PI_OFFLINE: "1" };
		delete env.PI_CODING_AGENT_DIR; // omp would read it as its own agent dir
		const child = execFile(BUN, [OMP, ...args], { cwd, env, encoding: "utf8", timeout: 90_000 }, (error, _stdout, stderr) =>
			resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr }),
		);
		child.stdin?.end();
	});
}

async function lookback(argv: string[], home: string) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: home },
		isTTY: false,
	});
	return { code, json: stdout ? JSON.parse(stdout) : undefined, stderr };
}

type Hit = { sessionId: string; hits: number; parentSessionId?: string; forks: { sessionId: string }[] };

describe.skipIf(!existsSync(OMP))("omp's forks, written by the real omp", () => {
	it("finds the copied history once in the session it came from, the fork's own turn in the fork, each answer counted once", async () => {
		const home = tempDir("omp-fork");
		const agent = join(home, ".omp", "agent");
		mkdirSync(agent, { recursive: true });
		writeFileSync(join(agent, "models.yml"), MODELS(model.current.url));
		const cwd = join(home, "work");
		mkdirSync(cwd);
		const first = await omp(["-p", "--model", "fakeprov/fake-1", "Tell me about the wombat please"], home, cwd);
		expect(first.code, first.stderr).toBe(0);
		const files = () =>
			readdirSync(join(agent, "sessions"), { recursive: true })
				.map(String)
				.filter((f) => f.endsWith(".jsonl"));
		const [file] = files();
		const header = readFileSync(join(agent, "sessions", file), "utf8")
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l))
			.find((r) => r.type === "session");
		const fork = await omp(["--fork", header.id, "-p", "--model", "fakeprov/fake-1", "the forked turn about the pangolin"], home, cwd);
		expect(fork.code, fork.stderr).toBe(0);
		expect(files()).toHaveLength(2);

		const own = await lookback(["search", "pangolin"], home);
		expect(own.code, own.stderr).toBe(0);
		const [forked] = own.json.results as Hit[];
		expect(forked).toMatchObject({ agent: "omp", parentSessionId: header.id });
		const copied = await lookback(["search", "wombat", "--role", "user"], home);
		expect((copied.json.results as Hit[]).map((h) => [h.sessionId, h.hits, h.forks.map((f) => f.sessionId)])).toEqual([
			[header.id, 1, [forked.sessionId]],
		]);
		const usage = await lookback(["usage", "--by", "session"], home);
		const answers = Object.fromEntries(usage.json.rows.map((r: { key: string; messages: number }) => [r.key, r.messages]));
		expect(answers).toEqual({ [header.id]: 1, [forked.sessionId]: 1 });
	}, 240_000);
});
