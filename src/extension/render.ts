/**
 * How a `session_search` call looks in Pi's TUI: a header line, the last lines collapsed, all on Ctrl+O. Loaded
 * with the extension (Pi asks for these renderers at registration) in the entry's bundle, so it holds no more than
 * the renderers, and it is handed the host's own `Text` component (a bundle loaded by Node's `require` would find
 * its own copy of Pi's TUI, if any; the entry, loaded by the host, gets the host's).
 */

import type { Text as TextComponent } from "@mariozechner/pi-tui";
import { terminalSafe } from "../core/text/terminal.js";
import { type CallArgs, callSubject, modeOf } from "./modes.js";

/** The host's `Text` component's constructor. */
export type TextClass = new (text: string, paddingX: number, paddingY: number) => TextComponent;

/** Last `count` lines and how many came before them. */
export function collapsed(lines: string[], count = 5): { shown: string[]; hidden: number } {
	return { shown: lines.slice(-count), hidden: Math.max(0, lines.length - count) };
}

interface Theme {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

export function renderCall(Text: TextClass, args: CallArgs, theme: Theme): TextComponent {
	const mode = modeOf(args) === "discovery" ? "search" : modeOf(args);
	// The model's arguments, which a session's text may have steered: shown, never acted on by the terminal.
	const what = terminalSafe(callSubject(args));
	return new Text(`${theme.fg("toolTitle", theme.bold("session_search "))}${theme.fg("accent", mode)} ${theme.fg("muted", what)}`, 0, 0);
}

/** The collapsed view: the last five lines as the terminal shows them (long lines wrap), and how many came before. */
class CollapsedView {
	constructor(
		private readonly Text: TextClass,
		private readonly lines: string[],
		private readonly theme: Theme,
	) {}

	render(width: number): string[] {
		const visual = new this.Text(terminalSafe(this.lines.join("\n")), 0, 0).render(width);
		const { shown, hidden } = collapsed(visual);
		return hidden > 0 ? [this.theme.fg("muted", `… ${hidden} earlier lines (Ctrl+O to expand)`), ...shown] : shown;
	}

	invalidate(): void {}
}

export function renderResult(
	Text: TextClass,
	result: { content: readonly { type: string; text?: string }[]; details?: { lines?: string[] } },
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): { render(width: number): string[]; invalidate(): void } {
	if (options.isPartial) return new Text(theme.fg("muted", "searching past sessions…"), 0, 0);
	if (options.expanded) return new Text(terminalSafe(result.content.map((c) => c.text ?? "").join("\n")), 0, 0);
	return new CollapsedView(Text, result.details?.lines ?? [], theme);
}
