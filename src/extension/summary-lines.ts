/** A `session_search` reply as a few human lines: what the collapsed view and the `/lookback` command show. */

import { type BranchState, DEFAULTS, flatten, formatUsd, type Reply, type SessionCost, shortTime, thousands } from "../core/index.js";
import { terminalSafe } from "../core/text/terminal.js";
import type { ToolReply } from "./tool-reply.js";

/** One found session as the collapsed view shows it. */
interface HitLine {
	title: string;
	project: string;
	time?: string;
	hits?: number;
	branchState?: BranchState;
	goneAt?: string;
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
			h.goneAt ? `gone ${shortTime(h.goneAt)}` : "",
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
			goneAt: h.goneAt,
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
					goneAt: s.goneAt,
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
	// Drawn in Pi's TUI: a session's escapes shown, never acted on.
	return lines.map(terminalSafe);
}
