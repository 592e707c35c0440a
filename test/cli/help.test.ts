import { describe, expect, it } from "vitest";
import { FLAGS, parseArgs, VALUE_OPTIONS } from "../../src/cli/args.js";
import { COMMAND_HELP, COMMON_OPTIONS, documented } from "../../src/cli/command-help.js";
import { COMMANDS, checkCommand, commonOptionNames } from "../../src/cli/command-line.js";
import { run } from "../../src/cli/main.js";

async function cli(argv: string[]) {
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

/** A command line split as a POSIX shell splits it (quotes, no expansions). */
function words(line: string): string[] {
	return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe("each command's help", () => {
	for (const command of Object.keys(COMMANDS)) {
		it(`${command}: help exists, lists every option the parser lets it take, and its example parses`, async () => {
			const help = COMMAND_HELP[command];
			expect(help, `no entry for ${command} in src/cli/command-help.ts`).toBeDefined();
			const byWord = await cli(["help", command]);
			const byFlag = await cli([command, "--help"]);
			expect(byWord.code).toBe(0);
			expect(byFlag).toEqual(byWord);
			expect(byWord.stdout).toMatch(new RegExp(`^usage: lookback ${command}`));
			expect(byWord.stdout).toContain("example: lookback ");
			expect(byWord.stdout).toMatch(/exit: +0 /);
			for (const name of [...COMMANDS[command].options, ...commonOptionNames()]) {
				expect(documented(name), `--${name} has no line`).toBe(true);
				expect(byWord.stdout, `${command}'s help does not list --${name}`).toContain(`--${name}`);
			}
			// What the help says it takes, the parser lets it take.
			for (const name of help.options) expect(COMMANDS[command].options.includes(name) || FLAGS.has(name)).toBe(true);
			const [bin, ...argv] = words(help.example);
			expect(bin).toBe("lookback");
			const parsed = parseArgs(argv);
			expect(parsed.command).toBe(command);
			expect(() => checkCommand(parsed)).not.toThrow();
		});
	}

	it("documents every option and flag the parser knows; an unknown command's help is refused in one line", async () => {
		for (const name of [...Object.keys(VALUE_OPTIONS), ...FLAGS].filter((n) => n !== "version"))
			expect(documented(name), `--${name} has no line in src/cli/command-help.ts`).toBe(true);
		for (const name of commonOptionNames()) expect((COMMON_OPTIONS as readonly string[]).includes(name)).toBe(true);
		const r = await cli(["help", "nope"]);
		expect(r).toEqual({ code: 2, stdout: "", stderr: 'lookback: unknown command "nope" (see lookback help)\n' });
		expect((await cli(["help"])).stdout).toContain("lookback help COMMAND");
	});
});
