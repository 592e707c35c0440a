/** The tool in Pi's interactive TUI, driven through tmux: collapsed to its last lines, everything on Ctrl+O. */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXTENSION, PI_RELEASES, useFakeModel } from "../agents.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { FIXTURES, tempDir } from "../helpers.js";

const model = useFakeModel();
const SESSION = `lookback-tui-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });

afterEach(() => {
	try {
		tmux("kill-session", "-t", SESSION);
	} catch {
		// already gone
	}
});

async function screenUntil(pattern: RegExp): Promise<string> {
	let screen = "";
	for (let i = 0; i < 150; i++) {
		screen = tmux("capture-pane", "-t", SESSION, "-p");
		if (pattern.test(screen)) return screen;
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`the screen never showed ${pattern}:\n${screen}`);
}

describe.each(PI_RELEASES)("session_search in the TUI of $name", (release) => {
	it("shows the last lines collapsed, and the whole reply after Ctrl+O", async () => {
		const root = tempDir("pi-tui");
		const agentDir = join(root, "agent");
		const cwd = join(root, "work");
		mkdirSync(cwd, { recursive: true });
		mkdirSync(join(root, "home"), { recursive: true });
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.current.url));
		const command = `HOME=${root}/home PI_CODING_AGENT_DIR=${agentDir} PI_OFFLINE=1 ${release.command.join(" ")} --provider fake --model fake-model -e ${EXTENSION}`;
		tmux("new-session", "-d", "-s", SESSION, "-x", "120", "-y", "50", "-c", cwd, command);
		await screenUntil(/fake-model/);
		tmux("send-keys", "-t", SESSION, 'CALL session_search {"query":"RabbitMQ OR deadlock OR retry"}', "Enter");
		const collapsed = await screenUntil(/earlier lines \(Ctrl\+O to expand\)/);
		expect(collapsed).toMatch(/session_search search RabbitMQ OR deadlock OR retry/);
		expect(collapsed).toMatch(/4 of 4 sessions/);
		expect(collapsed).not.toMatch(/"resumeHint"/);
		tmux("send-keys", "-t", SESSION, "C-o");
		const expanded = await screenUntil(/"resumeHint": "pi --session/);
		expect(expanded).toMatch(/"mode": "discovery"/);
	});
});
