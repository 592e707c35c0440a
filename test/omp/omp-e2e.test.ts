/**
 * The same extension under the real omp (18.2.3 on Bun 1.4.5, installed from the registry by scripts/ensure-omp.mjs):
 * a fake model calls session_search; omp writes the tool result into its own session file. Bun runs lookback's
 * indexer process too: a first index goes on after omp exits.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateCorpus } from "../../bench/gen-corpus.mjs";
import { lookbackDataDir } from "../../src/node/index-path.js";
import { IndexerSlot } from "../../src/node/indexer-slot.js";
import { openNodeIndex } from "../../src/node/open.js";
import { EXTENSION, REPO, useFakeModel } from "../agents.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";
import { ompStore, PARENT } from "./omp-store.js";

const TOOLS = join(REPO, ".tools", "omp", "node_modules");
const BUN = join(TOOLS, ".bin", "bun");
const OMP = join(TOOLS, "@oh-my-pi", "pi-coding-agent", "dist", "cli.js");

const model = useFakeModel();

function modelsYml(url: string): string {
	return `providers:
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
}

/** A HOME with omp's store (our omp sample) and Pi's sample sessions. */
function home() {
	const root = tempDir("omp-e2e");
	const homeDir = join(root, "home");
	const store = ompStore(homeDir);
	writeFileSync(join(store.agent, "models.yml"), modelsYml(model.current.url));
	cpSync(FIXTURES, join(homeDir, ".pi", "agent", "sessions"), { recursive: true });
	const cwd = join(homeDir, "work");
	mkdirSync(cwd, { recursive: true });
	return { homeDir, cwd, store };
}

function omp(args: string[], h: ReturnType<typeof home>): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const env: Record<string, string | undefined> = { ...process.env, HOME: h.homeDir, PI_OFFLINE: "1" };
		delete env.PI_CODING_AGENT_DIR; // omp would read it as its own agent dir
		const child = execFile(BUN, [OMP, ...args], { cwd: h.cwd, env, encoding: "utf8", timeout: 90_000 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
		child.stdin?.end();
	});
}

/** session_search results in the session omp wrote for this run (newest file in the work folder's bucket). */
function toolResults(h: ReturnType<typeof home>): { text: string; isError: boolean }[] {
	const sessions = join(h.store.agent, "sessions");
	const files = readdirSync(sessions)
		.filter((d) => d.includes("work"))
		.flatMap((d) =>
			readdirSync(join(sessions, d))
				.filter((f) => f.endsWith(".jsonl"))
				.map((f) => join(sessions, d, f)),
		)
		.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
	const file = files.pop();
	if (!file) return [];
	return readFileSync(file, "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l))
		.filter((e) => e.message?.role === "toolResult" && e.message.toolName === "session_search")
		.map((e) => ({ text: e.message.content.map((c: { text?: string }) => c.text ?? "").join(""), isError: Boolean(e.message.isError) }));
}

describe("session_search in the real omp", () => {
	it("finds omp and Pi sessions, with each agent's resume command and omp's titles", async () => {
		const h = home();
		const run = await omp(
			[
				"-p",
				"--model",
				"fakeprov/fake-1",
				"-e",
				EXTENSION,
				'CALL session_search {"action":"content","query":"rounding OR amqplib","limit":5}',
			],
			h,
		);
		expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
		const [result] = toolResults(h);
		expect(result?.isError, result?.text).toBe(false);
		const reply = JSON.parse(result.text);
		const ompHit = reply.results.find((r: { session_id: string }) => r.session_id === PARENT);
		expect(ompHit).toMatchObject({ title: "Cart rounding bug", resume_hint: `omp --resume ${PARENT}`, agent: "omp" });
		const piHit = reply.results.find((r: { session_id: string }) => r.session_id === SAMPLE.branched);
		expect(piHit).toMatchObject({ resume_hint: `pi --session ${SAMPLE.branched}`, agent: "pi" });
	});

	it("is offered to the model directly (loadMode essential) when linked as a plugin", async () => {
		const h = home();
		const link = await omp(["plugin", "link", REPO], h);
		expect(link.code, `${link.stdout}\n${link.stderr}`).toBe(0);
		const before = model.current.requests.length;
		const run = await omp(["-p", "--model", "fakeprov/fake-1", "hello"], h);
		expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
		const tools = model.current.requests.slice(before).flatMap((r) => (r.tools ?? []).map((t) => t.function.name));
		expect(tools).toContain("session_search");
	});

	it("takes queryVariants, and the hit names the variant that found it", async () => {
		const h = home();
		const run = await omp(
			[
				"-p",
				"--model",
				"fakeprov/fake-1",
				"-e",
				EXTENSION,
				'CALL session_search {"query":"formateador pelícano","queryVariants":["pelican formatter"]}',
			],
			h,
		);
		expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
		const [discovery] = toolResults(h);
		const reply = JSON.parse(discovery.text);
		expect(reply.variants).toEqual(["pelican formatter"]);
		expect(reply.results[0].foundBy).toContain("pelican formatter");
	});

	it("answers discovery with a sub-agent hit, and list with dates", async () => {
		const h = home();
		const found = await omp(["-p", "--model", "fakeprov/fake-1", "-e", EXTENSION, 'CALL session_search {"query":"pelican formatter"}'], h);
		expect(found.code, `${found.stdout}\n${found.stderr}`).toBe(0);
		const [discovery] = toolResults(h);
		const hit = JSON.parse(discovery.text).results[0];
		expect(hit).toMatchObject({
			kind: "subagent",
			spawnedBySessionId: PARENT,
			spawnedByEntryId: "0000000a",
			resumeHint: `omp --resume ${PARENT}`,
		});
		const h2 = home();
		const listed = await omp(
			[
				"-p",
				"--model",
				"fakeprov/fake-1",
				"-e",
				EXTENSION,
				'CALL session_search {"action":"list","since":"2026-11-01","until":"2026-11-15"}',
			],
			h2,
		);
		expect(listed.code, `${listed.stdout}\n${listed.stderr}`).toBe(0);
		const list = JSON.parse(toolResults(h2)[0].text);
		expect(list.action).toBe("list");
		expect(list.results.map((r: { session_id: string }) => r.session_id)).toContain(PARENT);
		for (const r of list.results) expect(r.time >= "2026-11-01" && r.time < "2026-11-16").toBe(true);
	});

	it("answers at once while a first index of a large history runs on Bun's indexer process, and exits while it goes on", async () => {
		const h = home();
		// 40 MB of Pi sessions beside omp's: more than a search waits for.
		const corpus = tempDir("omp-corpus");
		const files = generateCorpus({ out: corpus, mb: 40, seed: 11 }).files;
		cpSync(join(corpus, "sessions"), join(h.homeDir, ".pi", "agent", "sessions"), { recursive: true });
		const run = await omp(["-p", "--model", "fakeprov/fake-1", "-e", EXTENSION, 'CALL session_search {"query":"zanzibarRetryPolicy"}'], h);
		expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
		const reply = JSON.parse(toolResults(h)[0].text);
		expect(reply.indexing.total).toBeGreaterThan(files);
		expect(reply.indexing.done).toBeLessThan(reply.indexing.total);
		// omp has exited; its indexer (Bun running lookback's indexer) finishes the first index on its own.
		const indexPath = join(lookbackDataDir({ HOME: h.homeDir, XDG_DATA_HOME: process.env.XDG_DATA_HOME }), "index.db");
		const slot = new IndexerSlot(indexPath);
		for (let i = 0; i < 1200 && slot.other(); i++) await new Promise((r) => setTimeout(r, 250));
		expect(slot.other()).toBeUndefined();
		const opened = await openNodeIndex({ indexPath, onlySessionsDirs: true, env: {} });
		expect(opened.index.overview().sessions).toBeGreaterThanOrEqual(files);
		opened.index.close();
	}, 600_000);
});
