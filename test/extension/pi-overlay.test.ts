/**
 * The search overlay in the real `pi` TUI, driven through tmux (its own server, so its clipboard setting stays
 * here): open, type, move, preview, hand a hit to the conversation, resume, and close with the screen restored.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXTENSION, PI_RELEASES, useFakeModel } from "../agents.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { FIXTURES, tempDir } from "../helpers.js";
import { assistantMessage, SessionManager, toolResult, userMessage } from "../pi-sessions.js";

const model = useFakeModel();
const SOCKET = `lookback-overlay-${process.pid}`;
const SESSION = "pi";
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-t", SESSION, "-p");
const keys = (...k: string[]) => tmux("send-keys", "-t", SESSION, ...k);
const type = (text: string) => tmux("send-keys", "-t", SESSION, "-l", text);

afterEach(() => {
	try {
		tmux("kill-server");
	} catch {
		// already gone
	}
});

async function until(test: (s: string) => boolean, what: string): Promise<string> {
	let s = "";
	for (let i = 0; i < 150; i++) {
		s = screen();
		if (test(s)) return s;
		await new Promise((r) => setTimeout(r, 200));
	}
	throw new Error(`the screen never showed ${what}:\n${s}`);
}
const shows = (pattern: RegExp) => until((s) => pattern.test(s), String(pattern));
const hides = (pattern: RegExp) => until((s) => !pattern.test(s), `no ${pattern}`);

/** A command typed into Pi's editor: wait for it to be echoed, then Enter (the autocomplete list must not eat it). */
async function command(text: string): Promise<void> {
	type(text);
	await shows(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
	keys("Enter");
}

/** Sessions whose cwd is the test's own folder, filed under a folder name lookback does not skip as a temp one. */
function plant(agentDir: string, cwd: string): string {
	const dir = join(agentDir, "sessions", "--home-dev-work--");
	mkdirSync(dir, { recursive: true });
	const planted = SessionManager.create(cwd, dir);
	planted.appendSessionInfo("Planted: zanzibar migration");
	planted.appendMessage(userMessage("How do we run the zanzibarquokka migration safely on the orders table?"));
	planted.appendMessage(
		assistantMessage(
			"Run zanzibarquokka in batches of 500 rows, each in its own transaction, and keep the old column until the backfill is verified.",
		),
	);
	planted.appendMessage(userMessage("Write the steps down."));
	planted.appendMessage(assistantMessage(Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: migrate batch ${i + 1}.`).join("\n")));
	const other = SessionManager.create(cwd, dir);
	other.appendSessionInfo("Other: zanzibar mention");
	other.appendMessage(userMessage("List the migration logs"));
	other.appendMessage(assistantMessage("Reading them.", [{ name: "bash", arguments: { command: "cat migrate.log" } }]));
	other.appendMessage(toolResult("bash", "step 3: zanzibarquokka skipped"));
	other.appendMessage(assistantMessage("Done."));
	return planted.getSessionId();
}

describe.each(PI_RELEASES)("the lookback overlay in the TUI of $name", (release) => {
	it("finds a planted session as you type, previews it, inserts its excerpt and summary, copies and resumes it; Esc restores the screen", async () => {
		const root = tempDir("pi-overlay");
		const agentDir = join(root, "agent");
		const cwd = join(root, "work");
		const home = join(root, "home");
		for (const d of [cwd, home]) mkdirSync(d, { recursive: true });
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		writeFileSync(join(agentDir, "models.json"), fakeModelsJson(model.current.url));
		const plantedId = plant(agentDir, cwd);
		const run = `HOME=${home} PI_CODING_AGENT_DIR=${agentDir} PI_OFFLINE=1 ${release.command.join(" ")} --provider fake --model fake-model -e ${EXTENSION}`;
		tmux("new-session", "-d", "-s", SESSION, "-x", "100", "-y", "40", "-c", cwd, run);
		tmux("set-option", "-g", "set-clipboard", "on");
		await shows(/fake-model/);

		// Open, type, see the planted session first; move and come back; preview around the hit.
		await command("/lookback");
		await shows(/search past sessions · recent sessions/);
		type("zanzibarquokka");
		let s = await shows(/2 of 2 sessions/);
		expect(s).toMatch(/› Planted: zanzibar migration · work/);
		expect(s).toMatch(/▶ user[^\n]*\n {2}How do we run the zanzibarquokka migration safely/);
		keys("Down");
		await shows(/› Other: zanzibar mention/);
		s = await shows(/▶ tool · bash/);
		expect(s).toMatch(/step 3: zanzibarquokka skipped/);
		keys("Up");
		await shows(/› Planted: zanzibar migration/);
		keys("Tab");
		await shows(/↑↓ scroll · Tab switch pane/);
		keys("Down", "Down", "Down");
		await hides(/▶ user/);
		await shows(/Step 1: migrate batch 1\./);
		keys("Tab");
		await shows(/↑↓ move · Tab switch pane/);

		// Enter: the excerpt around the hit is in the editor, the overlay gone.
		keys("Enter");
		s = await shows(/From an earlier session "Planted: zanzibar migration"/);
		expect(s).toMatch(/\[user\] How do we run the zanzibarquokka migration/);
		expect(s).not.toMatch(/── results/);
		keys("C-c");
		await hides(/From an earlier session/);

		// The key binding opens it too; a query with no match says so; Esc puts the screen back as it was.
		const before = screen();
		keys("M-s");
		await shows(/search past sessions · recent sessions/);
		type("qqxxnomatchzz");
		await shows(/no session matches "qqxxnomatchzz"/);
		keys("Escape");
		await hides(/── results/);
		expect(screen()).toBe(before);

		// Ctrl+S: a summary written by the current model (the fake server) into the editor.
		const asked = model.current.requests.length;
		await command("/lookback zanzibarquokka");
		await shows(/› Planted: zanzibar migration/);
		keys("C-s");
		s = await shows(/Summary of an earlier session "Planted: zanzibar migration"/);
		expect(s).toMatch(/Hello from the fake server\./);
		const request = model.current.requests.slice(asked).at(-1);
		expect(JSON.stringify(request?.messages)).toContain("zanzibarquokka migration safely");
		keys("C-c");
		await hides(/Summary of an earlier session/);

		// Alt+C: the resume command reaches the clipboard (here tmux's, through OSC 52).
		await command("/lookback zanzibarquokka");
		await shows(/› Planted: zanzibar migration/);
		keys("M-c");
		await shows(/lookback: copied "pi --session/);
		expect(tmux("show-buffer")).toBe(`pi --session ${plantedId}`);

		// Ctrl+R: resume it; the footer names the resumed session.
		expect(screen()).not.toMatch(/• Planted: zanzibar migration/);
		await command("/lookback zanzibarquokka");
		await shows(/› Planted: zanzibar migration/);
		keys("C-r");
		s = await shows(/• Planted: zanzibar migration/);
		expect(s).toMatch(/Step 40: migrate batch 40\./);
		expect(existsSync(join(home, ".pi", "agent", "pi-crash.log"))).toBe(false);
	});
});
