/**
 * A long command settles V8's optimisers before it ends (src/node/settle-optimisers.ts), so that Node's exit has
 * no compile job to deadlock on (nodejs/node#54918). Here a function is optimised just before the end, which leaves
 * its optimisation in flight there (V8's test functions start the job at its last call); with the settle, V8's trace
 * has every job finished first.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE22, REPO } from "../agents.js";

let dir = "";
let script = "";

afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
	// Not tempDir(): that one is removed after each test, and the script serves the whole file.
	dir = mkdtempSync(join(tmpdir(), "settle-"));
	const entry = join(dir, "entry.mjs");
	// V8's own functions (allowed by a flag) have the function optimised on a background thread at its next call.
	writeFileSync(
		entry,
		`import { settleOptimisers } from ${JSON.stringify(join(REPO, "src", "node", "settle-optimisers.ts"))};
let body = "let s = 0;";
for (let i = 0; i < 400; i++) body += \`s += (x * \${i}) % \${i + 7} ? Math.sqrt(x + \${i}) : \${i};\`;
const hot = new Function("x", body + "return s;");
const optimised = new Function("f", '%PrepareFunctionForOptimization(f); f(1); f(2); %OptimizeFunctionOnNextCall(f, "concurrent"); return f(3);');
const t = optimised(hot);
if (process.argv[2] === "settle") settleOptimisers();
console.log("END", t > 0);
`,
	);
	script = join(dir, "bundle.mjs");
	await build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", outfile: script, logLevel: "error" });
});

/** The optimisations begun off the main thread before the end, and those of them finished by then, in V8's trace. */
function jobsAtEnd(node: string, settle: boolean): { begun: number; finished: number } {
	const out = execFileSync(node, ["--allow-natives-syntax", "--trace-opt", script, settle ? "settle" : "none"], { encoding: "utf8" });
	const before = out.slice(0, out.indexOf("\nEND"));
	const lines = before.split("\n");
	return {
		begun: lines.filter((l) => l.startsWith("[compiling method") && l.includes("ConcurrencyMode::kConcurrent")).length,
		finished: lines.filter((l) => /^\[(completed compiling|aborted optimizing|bailed out)/.test(l)).length,
	};
}

const NODES: [string, string][] = [[`Node ${process.versions.node}`, process.execPath]];
if (NODE22) NODES.push(["Node 22", NODE22]);

describe.each(NODES)("settling the optimisers on %s", (_name, node) => {
	it("leaves no compile job in flight at the end, where one was in flight without it", () => {
		// The case is real: without the settle, the end comes with the job still compiling.
		for (let i = 0; i < 4; i++) {
			const run = jobsAtEnd(node, false);
			expect(run).toEqual({ begun: 1, finished: 0 });
		}
		for (let i = 0; i < 8; i++) {
			const run = jobsAtEnd(node, true);
			expect(run.begun).toBeGreaterThan(0);
			expect(run.finished).toBe(run.begun);
		}
	});
});
