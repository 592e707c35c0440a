/** One message of the reader: prose as markdown, tool calls and results collapsed, summaries and labels marked. */

import type { ComponentChildren } from "preact";
import { assistantParts, type SessionMessage, shortTime } from "../../../src/core/index.js";
import { markdownHtml } from "../markdown.js";

import { ToolLine } from "./ToolLine.js";

const META_LABEL: Record<string, string> = {
	session_info: "session name",
	label: "label",
	title_change: "title",
	custom_message: "note",
	session_init: "task",
};
const SUMMARY_LABEL: Record<string, string> = { compaction: "compaction summary", branch_summary: "branch summary" };

function Markdown({ text }: { text: string }) {
	// markdown-it with html off: every tag of the transcript is escaped; links and images are restricted (markdown.ts).
	return <div class="md" dangerouslySetInnerHTML={{ __html: markdownHtml(text) }} />;
}

interface Props {
	message: SessionMessage;
	/** The entry the URL names (the hit). */
	focus: boolean;
	/** The current match of find-in-session. */
	found?: boolean;
	/** Links drawn under the message (the sub-agents a tool call spawned). */
	children?: ComponentChildren;
}

export function Message({ message, focus: named, found = false, children }: Props) {
	const m = message;
	const focus = named || found;
	let body: ComponentChildren;
	let label: string = m.role;
	if (m.role === "tool") {
		label = "tool result";
		body = <ToolLine kind="result" name={m.tool ?? m.type} text={m.text} open={focus} />;
	} else if (m.role === "assistant") {
		const { prose, calls } = assistantParts(m.text);
		body = (
			<>
				{prose.trim() ? <Markdown text={prose} /> : null}
				{calls.map((c, i) => (
					<ToolLine key={i} kind="call" name={c.name} text={c.arguments} open={focus && !prose.trim()} />
				))}
			</>
		);
	} else if (m.role === "summary") {
		label = SUMMARY_LABEL[m.type] ?? "summary";
		body = <Markdown text={m.text} />;
	} else if (m.role === "meta") {
		label = META_LABEL[m.type] ?? m.type;
		body = <p class="meta-text">{m.text}</p>;
	} else body = <Markdown text={m.text} />;
	return (
		<section class={`message ${m.role}${named ? " focus" : ""}${found ? " found" : ""}`} id={`entry-${m.entryId}`} data-entry={m.entryId}>
			<header>
				<span class="who">{label}</span> <span class="facts">{shortTime(m.time)}</span>
				{m.branchState !== "active" ? <span class={`badge ${m.branchState}`}>{m.branchState}</span> : null}
			</header>
			{body}
			{children}
		</section>
	);
}
