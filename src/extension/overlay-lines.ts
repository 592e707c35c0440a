/**
 * The overlay's lines: result rows and preview messages drawn to a width. Every line returned fits the width
 * (pi-tui stops on a line wider than the terminal), whatever the text holds: wide CJK, control characters, escapes.
 */

import { truncateToWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import { DEFAULTS, flatten, shortTime, type ToolMessage, terminalSafe } from "../core/index.js";
import type { OverlayRow } from "./overlay-results.js";

export interface OverlayTheme {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

/**
 * Terminal escapes and control characters in session text would move the cursor or change colours: shown as
 * visible characters (terminal.ts; an escape cut short by a preview hides nothing after it), tabs as spaces.
 */
export function plain(text: string): string {
	return terminalSafe(text).replace(/\t/g, "  ");
}

export function fit(line: string, width: number): string {
	return truncateToWidth(line, Math.max(0, width));
}

const MARKED = new RegExp(`${DEFAULTS.markOpen}([^${DEFAULTS.markClose}]*)${DEFAULTS.markClose}`, "g");

/** The core's « » marks as the theme's accent. */
function marked(snippet: string, theme: OverlayTheme): string {
	return plain(flatten(snippet)).replace(MARKED, (_m, word: string) => theme.fg("accent", theme.bold(word)));
}

/** Two lines per row: title and facts, then the marked snippet. */
export function rowLines(row: OverlayRow, selected: boolean, theme: OverlayTheme, width: number): string[] {
	const facts = [
		row.agent === "pi" ? "" : row.agent,
		row.project,
		shortTime(row.time),
		row.branchState && row.branchState !== "active" ? row.branchState : "",
		row.goneAt ? `gone ${shortTime(row.goneAt)} (Alt+R restores)` : "",
	]
		.filter(Boolean)
		.map((fact) => plain(flatten(fact)))
		.join(" · ");
	const title = plain(flatten(row.title));
	const head = selected ? theme.fg("accent", theme.bold(`› ${title}`)) : `  ${title}`;
	return [fit(`${head} ${theme.fg("muted", `· ${facts}`)}`, width), fit(`    ${marked(row.snippet, theme)}`, width)];
}

/** The preview: a header per message, its text wrapped; `focusLine` is where the hit's message starts. */
export function previewLines(
	messages: readonly ToolMessage[],
	focus: string | undefined,
	theme: OverlayTheme,
	width: number,
): { lines: string[]; focusLine: number } {
	const lines: string[] = [];
	let focusLine = 0;
	for (const m of messages) {
		const isHit = m.entryId === focus;
		if (isHit) focusLine = lines.length;
		const facts = plain([m.role, m.tool, shortTime(m.time), m.branchState !== "active" ? m.branchState : ""].filter(Boolean).join(" · "));
		lines.push(fit(isHit ? theme.fg("accent", theme.bold(`▶ ${facts}`)) : theme.fg("muted", `  ${facts}`), width));
		const body = plain(m.text)
			.replace(/\n{3,}/g, "\n\n")
			.trim();
		for (const text of wrapTextWithAnsi(body, Math.max(1, width - 2))) lines.push(fit(`  ${text}`, width));
		lines.push("");
	}
	return { lines, focusLine };
}
