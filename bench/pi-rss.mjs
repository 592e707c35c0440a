// What the extension adds to a real Pi process: `pi -p` (print mode, fake model on 127.0.0.1) makes one
// session_search call on a history whose index is already built, run with and without the extension.
//   node bench/pi-rss.mjs --agent-dir ABS_DIR --index FILE [--reps 3]   (ABS_DIR/sessions is the history)
// Prints one JSON line: peak RSS (MB) and wall time (ms) of each, medians.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { fakeModelsJson, startFakeModel } from "../test/fake-model-server.mjs";
import { namedArgs } from "./args.mjs";

// The index alone: the lookback processes this starts keep no archive (run.mjs measures it on its own).
process.env.LOOKBACK_ARCHIVE = "off";

const args = namedArgs(process.argv.slice(2));
const agentDir = resolve(args["agent-dir"]);
const reps = Number(args.reps ?? 3);
const PI = resolve("node_modules", ".bin", "pi");
const EXTENSION = resolve("src", "extension", "index.ts");
const model = await startFakeModel();
const leave = ["models.json", "auth.json"].filter((f) => !existsSync(join(agentDir, f)));
const home = mkdtempSync(join(tmpdir(), "lookback-pi-rss-"));
const cwd = join(home, "proj");
mkdirSync(cwd, { recursive: true });
writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.url));

/** Median peak RSS and wall time of `pi -p` (run asynchronously: the fake model answers from this process). */
async function timed(withExtension) {
	const rss = [];
	const times = [];
	for (let i = 0; i < reps; i++) {
		const before = new Set(readdirSync(join(agentDir, "sessions")));
		const prompt = `CALL session_search ${JSON.stringify({ query: "zanzibarRetryPolicy" })}`;
		const piArgs = [
			"--provider",
			"fake",
			"--model",
			"fake-model",
			...(withExtension ? ["-e", EXTENSION] : []),
			"-p",
			withExtension ? prompt : "hello",
		];
		const t = performance.now();
		// Print mode reads stdin to its end: give it none.
		const { stderr } = await promisify(execFile)("/bin/sh", ["-c", '/usr/bin/time -f "RSS %M" "$@" </dev/null', "sh", PI, ...piArgs], {
			cwd,
			env: {
				...process.env,
				HOME: home,
				PI_CODING_AGENT_DIR: agentDir,
				PI_OFFLINE: "1",
				PI_SKIP_VERSION_CHECK: "1",
				LOOKBACK_INDEX: resolve(args.index),
			},
			encoding: "utf8",
			maxBuffer: 64 << 20,
		});
		times.push(performance.now() - t);
		rss.push(Number(/RSS (\d+)/.exec(stderr)?.[1] ?? Number.NaN) / 1024);
		// Pi wrote its own session into the history: check the tool answered, then take it out again.
		for (const name of readdirSync(join(agentDir, "sessions"))) {
			if (before.has(name)) continue;
			const folder = join(agentDir, "sessions", name);
			if (withExtension) {
				const text = readdirSync(folder)
					.map((f) => readFileSync(join(folder, f), "utf8"))
					.join("\n");
				if (!/"toolName":"session_search"/.test(text) || /"toolName":"session_search"[^\n]*"isError":true/.test(text))
					throw new Error(`the session_search call did not answer: ${text.slice(-2000)}`);
			}
			rmSync(folder, { recursive: true, force: true });
		}
	}
	const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
	return { rssMB: median(rss), ms: median(times) };
}

const without = await timed(false);
const withExt = await timed(true);
await model.close();
rmSync(home, { recursive: true, force: true });
for (const f of leave) rmSync(join(agentDir, f), { force: true });
process.stdout.write(
	`${JSON.stringify({ without, with: withExt, addedMB: withExt.rssMB - without.rssMB, addedMs: withExt.ms - without.ms })}\n`,
);
