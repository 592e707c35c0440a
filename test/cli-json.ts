/** The command line run in-process with `--json`, expected to succeed: its parsed reply. */

import { expect } from "vitest";
import { run } from "../src/cli/main.js";

export async function lookbackJson(argv: string[], env: Record<string, string>) {
	let stdout = "";
	let stderr = "";
	const code = await run([...argv, "--json"], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env, isTTY: false });
	expect(code, stderr).toBe(0);
	return JSON.parse(stdout);
}
