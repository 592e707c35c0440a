/** What the Markdown and HTML exports call things: who said a message, where a branch leaves, what a state means. */

import type { ExportBranch, ExportDocument, ExportMessage } from "./document.js";

const SUMMARY_LABEL: Record<string, string> = { compaction: "compaction summary", branch_summary: "branch summary" };
const META_LABEL: Record<string, string> = {
	session_info: "session name",
	label: "label",
	title_change: "title",
	custom_message: "note",
	session_init: "task",
};

/** Who a message is from: user, assistant, tool result, compaction summary, … */
export function speaker(m: ExportMessage): string {
	if (m.role === "tool") return m.type === "bashExecution" ? "shell" : "tool result";
	if (m.role === "summary") return SUMMARY_LABEL[m.type] ?? "summary";
	if (m.role === "meta") return META_LABEL[m.type] ?? m.type;
	return m.role;
}

const firstLine = (text: string) => (text.split("\n").find((l) => l.trim()) ?? "").slice(0, 120);

/** A tool result's one line: a shell command as it was typed, else the tool's name and the output's first line. */
export function resultSummary(m: ExportMessage): string {
	return m.type === "bashExecution" || m.type === "pythonExecution" ? firstLine(m.text) : `← ${m.tool ?? m.type}: ${firstLine(m.text)}`;
}

/** `2026-11-04 09:05 UTC`. */
export function when(iso: string | undefined): string {
	return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "";
}

/** What a stretch of this state is, said where it starts. */
export const STATE_NOTE: Record<string, string> = {
	compacted: "compacted: summarized by a later compaction, no longer in the model's context",
	abandoned: "abandoned: left when the conversation went back to an earlier message",
};

/** A branch's heading: `Branch 2 · abandoned · 4 messages`. */
export function branchTitle(b: ExportBranch): string {
	const n = b.messages.length;
	return `Branch ${b.number}${b.number === 1 ? " (active)" : ` · ${b.state}`} · ${n} message${n === 1 ? "" : "s"}`;
}

/** Where a branch leaves, in words, with the message it leaves after (`#3`) when there is one. */
export function leavesWhere(b: ExportBranch, ordinal: (entryId: string) => number | undefined): string {
	if (b.leavesAfter === undefined) return "starts before the first message";
	const at = ordinal(b.leavesAfter);
	return `leaves branch ${b.leavesFrom ?? 1} after message ${at !== undefined ? `#${at}` : b.leavesAfter}`;
}

/** Each message's number in the export (#1, #2, … across branches), by entry id. */
export function ordinals(doc: ExportDocument): Map<string, number> {
	const out = new Map<string, number>();
	for (const b of doc.branches) for (const m of b.messages) if (!out.has(m.entryId)) out.set(m.entryId, out.size + 1);
	return out;
}

/** The header facts, as label and value (values as text; the HTML and Markdown escape them). */
export function facts(doc: ExportDocument): [string, string][] {
	const s = doc.session;
	const rows: [string, string | undefined][] = [
		["agent", s.agentName],
		["project", s.cwd ? `${s.project} (${s.cwd})` : s.project],
		["started", when(s.started)],
		["last activity", when(s.modified)],
		["messages", String(s.messageCount)],
		["resume", s.resumeHint],
		["session", s.sessionId],
		["forked from", s.parentSessionId],
		["sub-agent of", s.spawnedBySessionId],
	];
	return rows.filter((r): r is [string, string] => Boolean(r[1]));
}

/** The line under the header: when, which branches, what was redacted. */
export function exportNote(doc: ExportDocument): string {
	const kinds = Object.entries(doc.redactions);
	const count = kinds.reduce((n, [, c]) => n + c, 0);
	const redaction = doc.redacted
		? count > 0
			? `${count} secret${count === 1 ? "" : "s"} redacted (${kinds.map(([k, c]) => `${k} ${c}`).join(", ")})`
			: "redacted: no secret found"
		: "not redacted";
	const branches = doc.branch === "all" ? `every branch (${doc.branches.length})` : "the active branch";
	return `Exported by lookback ${when(doc.exportedAt)} · ${branches} · ${redaction}`;
}
