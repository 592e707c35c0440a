/** `lookback export`: formats, branches, --out, --no-redact and the errors, run in-process on the sample sessions. */

import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";
import { assistantMessage, newSession, userMessage } from "../pi-sessions.js";
import { PLANTED } from "../secrets.js";

function agentDir(): string {
	const dir = join(tempDir("agent"), "agent");
	mkdirSync(dir, { recursive: true });
	cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
	return dir;
}

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

describe("lookback export", () => {
	it("prints the active branch as Markdown by default, every branch with --branch all", async () => {
		const dir = agentDir();
		const md = await cli(["export", SAMPLE.branched, "--agent-dir", dir]);
		expect(md.code).toBe(0);
		expect(md.stdout).toMatch(/^# Order queue: dead-letter handling\n/);
		expect(md.stdout).toContain(`- **resume:** pi --session ${SAMPLE.branched}`);
		expect(md.stdout).toContain("## Conversation");
		expect(md.stdout).not.toContain("## Branch 2");
		const all = await cli(["export", SAMPLE.branched.slice(0, 8), "--branch", "all", "--agent-dir", dir]);
		expect(all.stdout).toMatch(/^## Branch 2 · abandoned · \d+ messages$/m);
		const json = JSON.parse((await cli(["export", SAMPLE.branched, "--format", "json", "--branch", "all", "--agent-dir", dir])).stdout);
		expect(json.branches.map((b: { state: string }) => b.state)).toEqual(["active", "abandoned", "abandoned"]);
	});

	it("writes --out FILE, the format from its extension, and says what it wrote", async () => {
		const dir = agentDir();
		const out = join(tempDir("out"), "session.html");
		const r = await cli(["export", SAMPLE.bash, "--out", out, "--agent-dir", dir]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("");
		expect(r.stderr).toMatch(/^lookback: wrote .*session\.html \(\d+ messages; 0 secrets redacted\)\n$/);
		const html = readFileSync(out, "utf8");
		expect(html).toMatch(/^<!doctype html>/);
		expect(html).toContain("Content-Security-Policy");
	});

	it("redacts by default and keeps the secrets only with --no-redact", async () => {
		const dir = agentDir();
		const sm = newSession(join(dir, "sessions"), "/home/dev/secrets-cli");
		sm.appendMessage(userMessage(`the keys:\n${PLANTED.map((p) => p.text).join("\n")}`));
		sm.appendMessage(assistantMessage("ok"));
		const id = sm.getSessionId();
		for (const format of ["md", "html", "json"]) {
			const redacted = await cli(["export", id, "--format", format, "--agent-dir", dir]);
			for (const p of PLANTED) expect(redacted.stdout, `${format} ${p.kind}`).not.toContain(p.secret);
		}
		const plain = await cli(["export", id, "--no-redact", "--agent-dir", dir]);
		for (const p of PLANTED) expect(plain.stdout, p.kind).toContain(p.secret);
		const out = join(tempDir("out"), "keys.md");
		expect((await cli(["export", id, "--out", out, "--agent-dir", dir])).stderr).toMatch(/\(2 messages; \d+ secrets redacted\)/);
	});

	it("refuses a bad format, branch or session with a clear error and exit code", async () => {
		const dir = agentDir();
		const format = await cli(["export", SAMPLE.linear, "--format", "pdf", "--agent-dir", dir]);
		expect(format).toMatchObject({ code: 2, stdout: "" });
		expect(format.stderr).toBe('lookback: --format must be one of md, html, json, not "pdf"\n');
		expect((await cli(["export", SAMPLE.linear, "--branch", "some", "--agent-dir", dir])).stderr).toMatch(/--branch must be active or all/);
		const missing = await cli(["export", "nosuchsession", "--agent-dir", dir]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/^lookback: no indexed session has the id/);
		const outside = await cli(["export", "/etc/passwd.jsonl", "--agent-dir", dir]);
		expect(outside.code).toBe(2);
		expect((await cli(["export", "--agent-dir", dir])).stderr).toMatch(/export needs exactly one SESSION/);
		const out = join(tempDir("out"), "never.md");
		await cli(["export", "nosuchsession", "--out", out, "--agent-dir", dir]);
		expect(existsSync(out)).toBe(false);
	});
});
