/**
 * The package as a user gets it: `npm pack`, the tarball installed into a scratch project, a consumer file
 * type-checked against the shipped declarations, the `lookback` bin run, and the installed package loaded by
 * the real Pi (0.73.1) with `pi install`. Needs `npm run build` first (npm test does it) and the npm registry
 * or npm's cache for the package's dependencies.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PI_RELEASES, REPO, useFakeModel } from "../agents.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { FIXTURES, SAMPLE } from "../helpers.js";

const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");
const VERSION = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version as string;

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** The environment without what `npm test` passes down to its children (npm_config_local_prefix would point a nested npm at this repo). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || /^npm_config_(cache|registry|userconfig)$/i.test(k)),
	);
	return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): Promise<Run> {
	return new Promise((resolve) => {
		const child = execFile(command, args, { cwd, env, encoding: "utf8", timeout: 180_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
		child.stdin?.end();
	});
}

const model = useFakeModel();
let scratch = "";
/** The scratch project the tarball is installed into. */
let project = "";
/** The package as npm installed it from the tarball. */
let installed = "";

beforeAll(async () => {
	if (!existsSync(join(REPO, "dist", "types", "src", "index.d.ts")) || !existsSync(join(REPO, "dist", "browser.js"))) {
		throw new Error("dist/ is incomplete: run `npm run build` before this test");
	}
	scratch = mkdtempSync(join(tmpdir(), "lookback-pack-"));
	// --ignore-scripts: prepack would build again, under the feet of tests that read dist/ at the same time.
	const pack = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], REPO);
	expect(pack.code, pack.stderr).toBe(0);
	const tarball = join(scratch, (JSON.parse(pack.stdout) as { filename: string }[])[0].filename);
	project = join(scratch, "project");
	mkdirSync(project);
	writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
	const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], project);
	expect(install.code, install.stderr).toBe(0);
	installed = join(project, "node_modules", "lookback");
}, 240_000);

afterAll(() => {
	if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the packed package", () => {
	it("ships what its manifests name, and no tests or benchmarks", () => {
		const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
		for (const file of [
			manifest.bin.lookback,
			manifest.types,
			manifest.exports["."].default,
			manifest.exports["./web"].types,
			manifest.exports["./web"].default,
			...manifest.pi.extensions,
		]) {
			expect(existsSync(join(installed, file)), file).toBe(true);
		}
		expect(existsSync(join(installed, "wasm", "dist", "sql-wasm.wasm"))).toBe(true);
		expect(readdirSync(installed).sort()).toEqual(["LICENSE", "README.md", "dist", "package.json", "skills", "src", "wasm"]);
	});

	it("type-checks a consumer of lookback and lookback/web against the shipped declarations", async () => {
		writeFileSync(
			join(project, "tsconfig.json"),
			JSON.stringify({
				compilerOptions: {
					target: "ES2022",
					module: "NodeNext",
					moduleResolution: "NodeNext",
					lib: ["ES2023", "DOM"],
					strict: true,
					noEmit: true,
					skipLibCheck: false,
				},
				include: ["consumer.ts"],
			}),
		);
		// The @ts-expect-error lines fail the check if the declarations were missing or typed as any.
		writeFileSync(
			join(project, "consumer.ts"),
			`import { fileSource, fileStorage, loadEngine, LookbackIndex, type SearchResponse } from "lookback";
import { idbStorage, loadWebEngine, LookbackIndex as WebIndex, memorySource } from "lookback/web";

export async function searchFiles(indexPath: string, sessions: string): Promise<SearchResponse> {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: fileStorage(indexPath) });
	await index.sync(fileSource([{ path: sessions, layout: "nested" }]));
	// @ts-expect-error a search takes a request object
	index.search("sqlite lock");
	return index.search({ query: "sqlite lock", since: "2w" });
}

export async function browserSearch(files: Map<string, Uint8Array>): Promise<number> {
	// README's example for lookback/web
	const index = await WebIndex.open({ sql: await loadWebEngine({ wasmUrl: "/sql-wasm.wasm" }), storage: idbStorage() });
	await index.sync(memorySource(files));
	await index.save();
	// @ts-expect-error results are hits, not strings
	const first: string = index.search({ query: "sqlite" }).results[0];
	return first.length;
}
`,
		);
		const check = await run(process.execPath, [TSC, "-p", "tsconfig.json"], project);
		expect(check.stdout + check.stderr).toBe("");
		expect(check.code).toBe(0);
	});

	it("loads both entries at run time", async () => {
		const script = `const node = await import("lookback"); const web = await import("lookback/web");
console.log(JSON.stringify({ node: typeof node.LookbackIndex, openNodeIndex: typeof node.openNodeIndex, web: typeof web.LookbackIndex, idbStorage: typeof web.idbStorage, openServed: typeof web.openServed }));`;
		const loaded = await run(process.execPath, ["--input-type=module", "-e", script], project);
		expect(loaded.code, loaded.stderr).toBe(0);
		expect(JSON.parse(loaded.stdout)).toEqual({
			node: "function",
			openNodeIndex: "function",
			web: "function",
			idbStorage: "function",
			openServed: "function",
		});
	});

	it("bundles lookback/web for a browser without Node built-ins", async () => {
		const result = await build({
			stdin: {
				contents:
					'import { idbStorage, loadWebEngine, LookbackIndex } from "lookback/web"; console.log(idbStorage, loadWebEngine, LookbackIndex);',
				resolveDir: project,
			},
			bundle: true,
			platform: "browser",
			format: "esm",
			write: false,
			logLevel: "silent",
		});
		expect(result.errors).toEqual([]);
		expect(result.outputFiles[0].text).toContain("IndexedDB lookback/index/");
	});

	it("runs its lookback bin: version, and a search over a sessions folder", async () => {
		const bin = join(project, "node_modules", ".bin", "lookback");
		const env = cleanEnv({ HOME: join(scratch, "home"), PI_CODING_AGENT_DIR: join(scratch, "bin-agent") });
		expect((await run(bin, ["--version"], project, env)).stdout).toBe(`lookback ${VERSION}\n`);
		const args = [
			"search",
			"RabbitMQ quorum",
			"--only-sessions-dir",
			"--sessions-dir",
			FIXTURES,
			"--index",
			join(scratch, "index.db"),
			"--json",
		];
		const search = await run(bin, args, project, env);
		expect(search.code, search.stderr).toBe(0);
		const reply = JSON.parse(search.stdout);
		expect(reply.sync.added).toBe(10);
		expect(reply.results[0]).toMatchObject({ sessionId: SAMPLE.branched, branchState: "abandoned" });
	});

	// pi 0.73.1 and 1.6.0 take a .tgz path for an extension file (and fail to load it: "Unknown file extension
	// .tgz"), and `npm:<path>` looks the package up under the path as its name; so the tarball goes in with npm,
	// and pi installs the folder npm made, as it would a clone.
	it.each(PI_RELEASES)("loads into $name with pi install: the installed package answers session_search", async (release) => {
		const [exe, ...before] = release.command;
		const pi = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => run(exe, [...before, ...args], cwd, env);
		const agentDir = join(scratch, release.version, "agent");
		const cwd = join(scratch, release.version, "proj");
		mkdirSync(cwd, { recursive: true });
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.current.url));
		const env = cleanEnv({
			HOME: join(scratch, release.version, "home"),
			PI_CODING_AGENT_DIR: agentDir,
			PI_OFFLINE: "1",
			PI_SKIP_VERSION_CHECK: "1",
		});
		const install = await pi(["install", installed], cwd, env);
		expect(install.code, install.stderr).toBe(0);
		const list = await pi(["list"], cwd, env);
		expect(list.stdout).toContain(installed);
		const call = await pi(
			["--provider", "fake", "--model", "fake-model", "-p", `CALL session_search ${JSON.stringify({ query: "RabbitMQ quorum" })}`],
			cwd,
			env,
		);
		expect(call.code, call.stderr).toBe(0);
		const folder = readdirSync(join(agentDir, "sessions")).find((d) => d.endsWith("-proj--"));
		expect(folder).toBeDefined();
		const file = readdirSync(join(agentDir, "sessions", `${folder}`))
			.sort()
			.at(-1);
		const results = readFileSync(join(agentDir, "sessions", `${folder}`, `${file}`), "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line))
			.filter((e) => e.message?.role === "toolResult" && e.message.toolName === "session_search");
		expect(results).toHaveLength(1);
		expect(results[0].message.isError).toBe(false);
		expect(JSON.parse(results[0].message.content[0].text).results[0]).toMatchObject({ sessionId: SAMPLE.branched });
	});
});
