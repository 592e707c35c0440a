/** The overlay component over a real index: what it lists and previews, and that no line is wider than the terminal. */
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import { runAction } from "../../src/extension/handoff.js";
import { LookbackOverlay, type OverlayAction } from "../../src/extension/overlay.js";
import { overlayPreview, overlayResults } from "../../src/extension/overlay-results.js";
import { openNodeIndex } from "../../src/node/open.js";
import { FIXTURES, indexOf, SAMPLE, tempDir } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";

const theme = { fg: (_c: string, t: string) => `\x1b[36m${t}\x1b[39m`, bold: (t: string) => `\x1b[1m${t}\x1b[22m` };

async function overlayOver(root: string | undefined, rows: number, query = "") {
	const { index } = await indexOf(root);
	const tui = { terminal: { rows }, requestRender: () => undefined };
	const closed: (OverlayAction | undefined)[] = [];
	const source = {
		search: (line: string) => overlayResults(index, line),
		preview: (row: Parameters<typeof overlayPreview>[1]) => overlayPreview(index, row),
	};
	const overlay = new LookbackOverlay(tui as never, theme, source, (a) => closed.push(a), query);
	return { overlay, closed };
}

const plainText = (lines: string[]) => lines.join("\n").replace(/\x1b\[[0-9;]*m|\x1b_pi:c\x07/g, "");

describe("the search overlay", () => {
	it("lists recent sessions when empty, hits with filters typed inline, and previews around the hit", async () => {
		const recent = await overlayOver(undefined, 30);
		expect(plainText(recent.overlay.render(100))).toMatch(/search past sessions · recent sessions/);
		const { overlay, closed } = await overlayOver(undefined, 30, "RabbitMQ quorum project:webshop");
		const screen = plainText(overlay.render(100));
		expect(screen).toMatch(/› Order queue: dead-letter handling · webshop · .* · abandoned/);
		expect(screen).toMatch(/▶ user .*abandoned\n {2}Let's explore \(b\) first: migrate the queue to RabbitMQ/);
		overlay.handleInput("\r");
		expect(closed[0]).toMatchObject({ kind: "excerpt", row: { sessionId: SAMPLE.branched } });
		const none = await overlayOver(undefined, 30, "RabbitMQ project:inventory");
		const empty = plainText(none.overlay.render(100));
		expect(empty).toMatch(/no session matches "RabbitMQ project:inventory"/);
		expect(empty).toMatch(/nothing found: project inventory hid 1 session that matches/);
	});

	it("never draws a line wider than the terminal: long snippets, wide CJK, escapes and tabs", async () => {
		const root = join(tempDir("overlay"), "sessions");
		const sm = newSession(root, "/home/dev/很长的项目名称很长的项目名称很长的项目名称很长的项目名称");
		const wide = "数据库死锁排查".repeat(60);
		sm.appendSessionInfo(`会话名称${"很长".repeat(50)}`);
		sm.appendMessage(userMessage(`${wide} zebrafish ${"x".repeat(3000)}\t\x1b[31mred\x1b[0m\r\n${"ｗｉｄｅ".repeat(80)}`));
		sm.appendMessage(assistantMessage(`zebrafish ${wide}`, [{ name: "bash", arguments: { command: "a".repeat(500) } }]));
		sm.appendMessage(toolResult("bash", `${"🙂".repeat(300)} zebrafish`));
		for (const width of [20, 41, 80]) {
			for (const query of ["zebrafish", "死锁", ""]) {
				const { overlay } = await overlayOver(root, 24, query);
				const lines = overlay.render(width);
				expect(lines).toHaveLength(24);
				for (const line of lines) expect(visibleWidth(line), line).toBeLessThanOrEqual(width);
				expect(plainText(lines)).not.toContain("\t");
			}
		}
	});
});

describe("a gone session in the overlay", () => {
	it("is marked gone, offers Alt+R, and Alt+R writes its file back from the archive", async () => {
		const agentDir = join(tempDir("overlay-gone"), "agent");
		cpSync(FIXTURES, join(agentDir, "sessions"), { recursive: true });
		const opened = await openNodeIndex({ agentDir, env: { HOME: join(agentDir, "no-home") } });
		await opened.index.sync(opened.source);
		const path = opened.index.session(SAMPLE.branched).path;
		const bytes = readFileSync(path);
		rmSync(path);
		await opened.index.sync(opened.source);
		const closed: (OverlayAction | undefined)[] = [];
		const source = {
			search: (line: string) => overlayResults(opened.index, line),
			preview: (row: Parameters<typeof overlayPreview>[1]) => overlayPreview(opened.index, row),
		};
		const tui = { terminal: { rows: 30 }, requestRender: () => undefined };
		const overlay = new LookbackOverlay(tui as never, theme, source, (a) => closed.push(a), "RabbitMQ quorum");
		const screen = plainText(overlay.render(160));
		expect(screen).toMatch(/› Order queue: dead-letter handling · webshop · .* · abandoned · gone .* \(Alt\+R restores\)/);
		expect(screen).toContain("Alt+R restore the file");
		expect(screen).toMatch(/▶ user .*abandoned\n {2}Let's explore \(b\) first: migrate the queue to RabbitMQ/);
		overlay.handleInput("\x1br");
		expect(closed[0]).toMatchObject({ kind: "restore", row: { sessionId: SAMPLE.branched, path } });
		const notes: string[] = [];
		const ctx = { ui: { notify: (text: string) => notes.push(text) } };
		await runAction(opened, closed[0]!, ctx as never, () => opened.index.sync(opened.source));
		expect(readFileSync(path).equals(bytes)).toBe(true);
		expect(notes[0]).toMatch(/^lookback: restored "Order queue: dead-letter handling" \(1 file\)/);
		const after = new LookbackOverlay(tui as never, theme, source, () => undefined, "RabbitMQ quorum");
		expect(plainText(after.render(160))).not.toContain("gone");
	});
});
