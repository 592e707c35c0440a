/** The command line run in this process, as a person runs it without a terminal, in a home that holds nothing. */

import { run } from "../src/cli/main.js";

export async function cliInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	let stdout = "";
	let stderr = "";
	const code = await run(argv, {
		stdout: (t) => (stdout += t),
		stderr: (t) => (stderr += t),
		env: { HOME: "/nonexistent-lookback-home" },
		isTTY: false,
	});
	return { code, stdout, stderr };
}
