/**
 * A session the real Pi wrote, deleted, kept by lookback's archive, restored with `lookback restore`, and resumed
 * by the real Pi (`pi --session <id>` in print mode): the model is sent the restored history.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { PI_RELEASES, useFakeModel } from "../agents.js";
import { lookbackJson as lookback } from "../cli-json.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { tempDir } from "../helpers.js";

const model = useFakeModel();

function pi(command: string[], args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number; stderr: string }> {
	const [exe, ...before] = command;
	return new Promise((resolve) => {
		const child = execFile(
			exe,
			[...before, ...args],
			{ cwd, env: { ...process.env, ...env, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" }, encoding: "utf8", timeout: 60_000 },
			(error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
		);
		child.stdin?.end();
	});
}

/** The one session file Pi wrote for `cwd`. */
function sessionFile(agentDir: string): string {
	const root = join(agentDir, "sessions");
	const files = readdirSync(root, { recursive: true })
		.map(String)
		.filter((n) => n.endsWith(".jsonl"));
	expect(files).toHaveLength(1);
	return join(root, files[0]);
}

describe.each(PI_RELEASES)("a session restored and resumed by the real $name", (release) => {
	it("is found while gone, written back byte for byte, and Pi resumes it from its history", async () => {
		const root = tempDir("pi-restore");
		const home = join(root, "home");
		const agentDir = join(root, "agent");
		// A project outside the temp folder: lookback skips the sessions of temporary working directories.
		const cwd = mkdtempSync(join("/var/tmp", "lookback-proj-"));
		onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
		for (const d of [home, agentDir, cwd]) mkdirSync(d, { recursive: true });
		writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.current.url));
		const env = { HOME: home, PI_CODING_AGENT_DIR: agentDir };
		const args = ["--provider", "fake", "--model", "fake-model"];

		const first = await pi(release.command, [...args, "-p", "remember the quokka password: tango-forty-two"], env, cwd);
		expect(first.code, first.stderr).toBe(0);
		const file = sessionFile(agentDir);
		const bytes = readFileSync(file);
		const id = JSON.parse(bytes.toString("utf8").split("\n")[0]).id as string;
		await lookback(["index"], env);
		rmSync(file);

		const gone = await lookback(["search", "quokka password"], env);
		expect(gone.sync).toMatchObject({ gone: 1, purged: 0 });
		expect(gone.results[0]).toMatchObject({ sessionId: id, source: "gone", resumeHint: `lookback restore ${id} && pi --session ${id}` });
		const restored = await lookback(["restore", id], env);
		expect(restored.files).toEqual([{ path: file, bytes: bytes.length, outcome: "written" }]);
		expect(readFileSync(file).equals(bytes)).toBe(true);

		const asked = model.current.requests.length;
		const resumed = await pi(release.command, [...args, "--session", id, "-p", "what was the password?"], env, cwd);
		expect(resumed.code, resumed.stderr).toBe(0);
		const request = JSON.stringify(model.current.requests.slice(asked).at(-1));
		expect(request).toContain("tango-forty-two");
		expect(request).toContain("what was the password?");
		// Pi went on in the restored file itself.
		const after = readFileSync(file);
		expect(after.subarray(0, bytes.length).equals(bytes)).toBe(true);
		expect(after.toString("utf8")).toContain("what was the password?");
		expect((await lookback(["search", "what was the password"], env)).results[0]).toMatchObject({ sessionId: id });
	});
});
