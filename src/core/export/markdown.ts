/**
 * The Markdown export: the session's facts, then each branch's messages with who and when; tool calls and their
 * output in `<details>` blocks with fenced text; prose kept as Markdown but inert (escape.ts).
 */

import type { ExportDocument, ExportMessage } from "./document.js";
import { escapeHtml, fenced, inertMarkdown, markdownText } from "./escape.js";
import { branchTitle, exportNote, facts, leavesWhere, ordinals, resultSummary, STATE_NOTE, speaker, when } from "./labels.js";
import { firstArgument } from "./message-parts.js";

/** A collapsed block: its one-line summary, then the text fenced. */
function details(summary: string, text: string, lang = ""): string {
	return `<details><summary>${escapeHtml(summary)}</summary>\n\n${fenced(text, lang)}\n\n</details>`;
}

function messageMarkdown(m: ExportMessage, n: number): string {
	const head = [
		`#${n}`,
		speaker(m),
		m.role === "tool" && m.tool ? m.tool : "",
		when(m.time),
		m.branchState !== "active" ? m.branchState : "",
	]
		.filter(Boolean)
		.map(markdownText)
		.join(" · ");
	const parts = [`<a id="m-${escapeHtml(m.entryId)}"></a>\n\n### ${head}`];
	if (m.role === "tool") parts.push(details(resultSummary(m), m.text));
	else if (m.role === "meta") parts.push(markdownText(m.text));
	else if (m.text.trim()) parts.push(inertMarkdown(m.text));
	for (const c of m.calls ?? []) parts.push(details(`→ ${c.name} ${firstArgument(c.arguments).slice(0, 120)}`, c.arguments, "json"));
	if (m.textCut) parts.push("_(only the head and tail of this message could be read: its session file did not give the rest)_");
	for (const a of m.subagents ?? []) parts.push(`⇢ sub-agent **${markdownText(a.name)}** (session \`${a.sessionId}\`)`);
	return parts.join("\n\n");
}

export function exportMarkdown(doc: ExportDocument): string {
	const number = ordinals(doc);
	const out = [
		`# ${markdownText(doc.session.title)}`,
		facts(doc)
			.map(([k, v]) => `- **${k}:** ${markdownText(v)}`)
			.join("\n"),
	];
	if (doc.subagents.length > 0)
		out.push(`- **sub-agents:** ${doc.subagents.map((a) => `${markdownText(a.name)} (\`${a.sessionId}\`)`).join(", ")}`);
	if (doc.forks.length > 0) out.push(`- **forks:** ${doc.forks.map((f) => `${markdownText(f.name)} (\`${f.sessionId}\`)`).join(", ")}`);
	out.push(`_${markdownText(exportNote(doc))}_`);
	for (const b of doc.branches) {
		if (doc.branch === "active") out.push("## Conversation");
		else
			out.push(
				`## ${markdownText(branchTitle(b))}`,
				...(b.number > 1 ? [`_${markdownText(leavesWhere(b, (id) => number.get(id)))}_`] : []),
			);
		let state = "active";
		for (const m of b.messages) {
			if (m.branchState !== state && STATE_NOTE[m.branchState]) out.push(`> ${STATE_NOTE[m.branchState]}`);
			state = m.branchState;
			out.push(messageMarkdown(m, number.get(m.entryId) ?? 0));
		}
	}
	return `${out.join("\n\n")}\n`;
}
