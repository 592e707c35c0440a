/** How a `session_search` call looks in Pi's TUI: a header line, the last lines collapsed, all on Ctrl+O. */

import { Text } from "@mariozechner/pi-tui";
import { type BranchState, DEFAULTS, flatten, formatUsd, type Reply, type SessionCost, shortTime, thousands } from "../core/index.js";
import { type CallArgs, callSubject, modeOf } from "./params.js";
import type { ToolReply } from "./tool-reply.js";

/** One found session as the collapsed view shows it. */
interface HitLine {
	title: string;
	project: string;
	time?: string;
	hits?: number;
	branchState?: BranchState;
	snippet: string;
	/** What a listed session cost, where known. */
	usage?: SessionCost;
}

/** Characters of a snippet or message on one line of the collapsed view. */
const LINE_CHARS = 160;

function hitLines(hits: HitLine[]): string[] {
	return hits.flatMap((h, i) => {
		const facts = [
			h.project,
			shortTime(h.time),
			h.hits ? `${h.hits} hits` : "",
			h.branchState && h.branchState !== "active" ? h.branchState : "",
			h.usage?.costUsd !== undefined ? `${formatUsd(h.usage.costUsd)}${h.usage.estimated ? " (estimated)" : ""}` : "",
		].filter(Boolean);
		return [`${i + 1}. ${h.title} · ${facts.join(" · ")}`, `   ${h.snippet.slice(0, LINE_CHARS)}`];
	});
}

/** The found sessions of a reply, or undefined for a reply that reads one session. */
function foundSessions(reply: Reply): { lines: HitLine[]; total: number; notice?: string } | undefined {
	if ("action" in reply) {
		const lines = reply.results.map((h) => ({
			title: h.name ?? h.title,
			project: h.project,
			time: h.time,
			hits: h.hits,
			branchState: h.branchState,
			snippet: h.snippet,
			usage: h.usage,
		}));
		return { lines, total: reply.total, notice: reply.notice };
	}
	switch (reply.mode) {
		case "discovery":
			return { lines: reply.results.map((h) => ({ ...h, title: h.name ?? h.sessionId })), total: reply.total, notice: reply.notice };
		case "browse":
			return {
				lines: reply.sessions.map((s) => ({
					title: s.name ?? s.sessionId,
					project: s.project,
					time: s.modified,
					snippet: "",
					usage: s.usage,
				})),
				total: reply.total,
			};
		default:
			return undefined;
	}
}

/** The reply as a few human lines (what the collapsed view and the /lookback command show). */
export function summaryLines(reply: ToolReply, truncated = false): string[] {
	const lines: string[] = [];
	if ("indexing" in reply && reply.indexing)
		lines.push(`indexing in the background: ${reply.indexing.done}/${reply.indexing.total} files so far`);
	if ("syncWarning" in reply && reply.syncWarning) lines.push(`warning: ${JSON.stringify(reply.syncWarning)}`);
	if ("error" in reply && reply.error) lines.push(`no search: ${reply.error}`);
	const found = foundSessions(reply);
	if (found) {
		lines.push(...hitLines(found.lines));
		lines.push(`${found.lines.length} of ${found.total} sessions${found.notice ? ` (${found.notice})` : ""}`);
	}
	if ("mode" in reply && reply.mode === "in-session") {
		for (const m of reply.matches)
			lines.push(`[${m.role} ${m.entryId}${m.branchState === "active" ? "" : ` ${m.branchState}`}] ${flatten(m.snippet, LINE_CHARS)}`);
		lines.push(`${reply.session.name ?? reply.session.sessionId}: ${reply.matches.length} of ${reply.total} matches`);
	}
	if ("messages" in reply) {
		lines.push(`${reply.session.name ?? reply.session.sessionId}: ${reply.messages.length} of ${reply.total} messages`);
		for (const m of reply.messages) lines.push(`[${m.role} ${m.entryId}] ${flatten(m.text, LINE_CHARS)}`);
	}
	if (truncated) lines.push(`(reply cut to ${thousands(DEFAULTS.replyMaxChars)} characters)`);
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

export function renderCall(args: CallArgs, theme: Theme): Text {
	const mode = modeOf(args) === "discovery" ? "search" : modeOf(args);
	const what = callSubject(args);
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
	result: { content: readonly { type: string; text?: string }[]; details?: { lines?: string[] } },
	options: { expanded: boolean; isPartial: boolean },
	theme: Theme,
): { render(width: number): string[]; invalidate(): void } {
	if (options.isPartial) return new Text(theme.fg("muted", "searching past sessions…"), 0, 0);
	if (options.expanded) return new Text(result.content.map((c) => c.text ?? "").join("\n"), 0, 0);
	return new CollapsedView(result.details?.lines ?? [], theme);
}
