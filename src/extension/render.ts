/** How a `session_search` call looks in Pi's TUI: a header line, the last lines collapsed, all on Ctrl+O. */

import { Text } from "@mariozechner/pi-tui";

interface HitLike {
	sessionId?: string;
	session_id?: string;
	name?: string;
	title?: string;
	project?: string;
	time?: string;
	modified?: string;
	hits?: number;
	branchState?: string;
	snippet?: string;
	firstPrompt?: string;
}

function when(iso: string | undefined): string {
	return iso ? iso.slice(0, 16).replace("T", " ") : "";
}

function hitLines(hits: HitLike[]): string[] {
	return hits.flatMap((h, i) => {
		const facts = [h.project, when(h.time ?? h.modified), h.hits ? `${h.hits} hits` : "", h.branchState && h.branchState !== "active" ? h.branchState : ""].filter(Boolean);
		const title = h.name ?? h.title ?? h.firstPrompt?.slice(0, 60) ?? h.sessionId ?? h.session_id ?? "";
		return [`${i + 1}. ${title} · ${facts.join(" · ")}`, `   ${(h.snippet ?? h.firstPrompt ?? "").slice(0, 160)}`];
	});
}

/** The reply as a few human lines (what the collapsed view and the /lookback command show). */
export function summaryLines(reply: Record<string, unknown>): string[] {
	const lines: string[] = [];
	if (reply.indexing) {
		const { done, total } = reply.indexing as { done: number; total: number };
		lines.push(`indexing in the background: ${done}/${total} files so far`);
	}
	if (reply.syncWarning) lines.push(`warning: ${JSON.stringify(reply.syncWarning)}`);
	if (reply.error) lines.push(`no search: ${String(reply.error)}`);
	const results = (reply.results ?? reply.sessions) as HitLike[] | undefined;
	if (results) {
		lines.push(...hitLines(results));
		lines.push(`${results.length} of ${String(reply.total ?? results.length)} sessions${reply.notice ? ` (${String(reply.notice)})` : ""}`);
	}
	const messages = reply.messages as { role: string; entryId: string; text: string }[] | undefined;
	if (messages) {
		const session = reply.session as { name?: string; sessionId: string } | undefined;
		lines.push(`${session?.name ?? session?.sessionId ?? ""}: ${messages.length} of ${String(reply.total)} messages`);
		for (const m of messages) lines.push(`[${m.role} ${m.entryId}] ${m.text.replace(/\s+/g, " ").slice(0, 160)}`);
	}
	if (reply.contentTruncated) lines.push("(reply cut to 50,000 characters)");
	return lines;
}

/** Last `count` lines and how many came before them. */
export function collapsed(lines: string[], count = 5): { shown: string[]; hidden: number } {
	return { shown: lines.slice(-count), hidden: Math.max(0, lines.length - count) };
}

interface Theme {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

export function renderCall(args: { query?: string; sessionId?: string; action?: string; aroundMessageId?: string }, theme: Theme): Text {
	const mode = args.action ?? (args.sessionId ? (args.aroundMessageId ? "scroll" : "read") : args.query ? "search" : "browse");
	const what = args.query ?? args.sessionId ?? "recent sessions";
	return new Text(`${theme.fg("toolTitle", theme.bold("session_search "))}${theme.fg("accent", mode)} ${theme.fg("muted", what)}`, 0, 0);
}

/** The collapsed view: the last five lines as the terminal shows them (long lines wrap), and how many came before. */
class CollapsedView {
	constructor(
		private readonly lines: string[],
		private readonly theme: Theme,
	) {}

	render(width: number): string[] {
		const visual = new Text(this.lines.join("\n"), 0, 0).render(width);
		const { shown, hidden } = collapsed(visual);
		return hidden > 0 ? [this.theme.fg("muted", `… ${hidden} earlier lines (Ctrl+O to expand)`), ...shown] : shown;
	}

	invalidate(): void {}
}

export function renderResult(
	result: { content: { type: string; text?: string }[]; details?: { lines?: string[] } },
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): { render(width: number): string[]; invalidate(): void } {
	if (options.isPartial) return new Text(theme.fg("muted", "searching past sessions…"), 0, 0);
	if (options.expanded) return new Text(result.content.map((c) => c.text ?? "").join("\n"), 0, 0);
	return new CollapsedView(result.details?.lines ?? [], theme);
}
