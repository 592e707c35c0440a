/**
 * The HTML export: one self-contained file that runs nothing and loads nothing. Its Content-Security-Policy
 * allows no script, no connection, no remote image or font: only its own style, by hash. Prose is rendered by
 * safeMarkdown (raw HTML off, unsafe links kept as text, images as their alt text); every other text is escaped.
 * Tool calls and their output are `<details>` that open without script.
 */

import type { ExportBranch, ExportDocument, ExportMessage } from "./document.js";
import { escapeHtml } from "./escape.js";
import { branchTitle, exportNote, facts, leavesWhere, ordinals, resultSummary, STATE_NOTE, speaker, when } from "./labels.js";
import { firstArgument } from "./message-parts.js";
import { safeMarkdown } from "./safe-markdown.js";

const STYLE = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #6b7079; --bg: #fff; --line: #e3e5e8; --code: #f5f6f8;
  --user: #2f6fdf; --assistant: #2e9c61; --tool: #8a8f98; --summary: #b7791f; --meta: #8e5cd9; --warn: #c2410c; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e7ea; --muted: #9aa0a9; --bg: #16181c; --line: #2c3037; --code: #1f2228; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1.5rem 1rem 4rem; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2.5rem 0 .25rem; padding-top: .5rem; border-top: 2px solid var(--line); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0 0 .75rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.note, .leaves, .stretch, .fork { color: var(--muted); font-size: .9rem; }
nav ol { margin: .25rem 0; padding-left: 1.5rem; }
a { color: var(--user); }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--code); padding: .6rem .75rem; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
:not(pre) > code { background: var(--code); padding: .05rem .3rem; border-radius: 4px; }
.message { border-left: 3px solid var(--line); padding: .1rem 0 .1rem .9rem; margin: 1.1rem 0; }
.message.user { border-color: var(--user); }
.message.assistant { border-color: var(--assistant); }
.message.tool { border-color: var(--tool); }
.message.summary { border-color: var(--summary); }
.message.meta { border-color: var(--meta); }
.message > header { font-size: .85rem; color: var(--muted); margin-bottom: .2rem; }
.message > header .who { font-weight: 600; color: var(--fg); text-transform: capitalize; }
.message.compacted, .message.abandoned { opacity: .85; }
.badge { font-size: .75rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 .45rem; margin-left: .3rem; }
.badge.compacted { color: var(--summary); } .badge.abandoned { color: var(--warn); }
.stretch { border-top: 1px dashed var(--line); padding-top: .3rem; margin-top: 1.2rem; }
details { margin: .35rem 0; }
details > summary { cursor: pointer; color: var(--muted); overflow-wrap: anywhere; }
details > summary code { background: none; padding: 0; }
.md > :first-child { margin-top: 0; } .md > :last-child { margin-bottom: 0; }
.md table { border-collapse: collapse; } .md td, .md th { border: 1px solid var(--line); padding: .2rem .5rem; }
.cut { color: var(--warn); font-size: .85rem; }
.subagent { font-size: .9rem; }
`;

/** The policy: nothing but this file's own style (by hash) and its blank icon. */
async function policy(): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(STYLE)));
	const hash = btoa(String.fromCharCode(...digest));
	return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** The renderer, made on first use: markdown-it is loaded only when an HTML export is asked for. */
let markdown: Promise<(text: string) => string> | undefined;
const renderer = () => (markdown ??= import("markdown-it").then((m) => safeMarkdown(m.default)));

function collapsed(kind: "call" | "result", summary: string, text: string): string {
	return `<details class="tool ${kind}"><summary><code>${escapeHtml(summary)}</code></summary><pre>${escapeHtml(text)}</pre></details>`;
}

function messageHtml(m: ExportMessage, n: number, forks: ExportBranch[], render: (text: string) => string): string {
	const badge = m.branchState !== "active" ? ` <span class="badge ${m.branchState}">${m.branchState}</span>` : "";
	const head = `<header><span class="who">${escapeHtml(speaker(m))}</span> <a href="#m-${escapeHtml(m.entryId)}">#${n}</a> <time>${escapeHtml(when(m.time))}</time>${badge}</header>`;
	let body: string;
	if (m.role === "tool") body = collapsed("result", resultSummary(m), m.text);
	else if (m.role === "meta") body = `<p>${escapeHtml(m.text)}</p>`;
	else body = m.text.trim() ? `<div class="md">${render(m.text)}</div>` : "";
	for (const c of m.calls ?? []) body += collapsed("call", `→ ${c.name} ${firstArgument(c.arguments).slice(0, 160)}`, c.arguments);
	if (m.textCut) body += `<p class="cut">only the head and tail of this message could be read: its session file did not give the rest</p>`;
	for (const a of m.subagents ?? [])
		body += `<p class="subagent">⇢ sub-agent <b>${escapeHtml(a.name)}</b> (session <code>${escapeHtml(a.sessionId)}</code>)</p>`;
	for (const b of forks)
		body += `<p class="fork">↳ <a href="#branch-${b.number}">branch ${b.number}</a> (${b.state}, ${b.messages.length} messages) leaves here</p>`;
	return `<article class="message ${m.role} ${m.branchState}" id="m-${escapeHtml(m.entryId)}">${head}${body}</article>`;
}

export async function exportHtml(doc: ExportDocument): Promise<string> {
	const render = await renderer();
	const number = ordinals(doc);
	const forksAfter = new Map<string, ExportBranch[]>();
	for (const b of doc.branches) if (b.leavesAfter) forksAfter.set(b.leavesAfter, [...(forksAfter.get(b.leavesAfter) ?? []), b]);
	const s = doc.session;
	const header = [
		`<h1>${escapeHtml(s.title)}</h1>`,
		`<dl class="facts">${facts(doc)
			.map(
				([k, v]) =>
					`<dt>${escapeHtml(k)}</dt><dd>${k === "resume" || k === "session" ? `<code>${escapeHtml(v)}</code>` : escapeHtml(v)}</dd>`,
			)
			.join("")}${
			doc.subagents.length > 0
				? `<dt>sub-agents</dt><dd>${doc.subagents.map((a) => `${escapeHtml(a.name)} (<code>${escapeHtml(a.sessionId)}</code>)`).join(", ")}</dd>`
				: ""
		}${doc.forks.length > 0 ? `<dt>forks</dt><dd>${doc.forks.map((f) => `${escapeHtml(f.name)} (<code>${escapeHtml(f.sessionId)}</code>)`).join(", ")}</dd>` : ""}</dl>`,
		`<p class="note">${escapeHtml(exportNote(doc))}</p>`,
		doc.branch === "all"
			? `<nav><ol>${doc.branches.map((b) => `<li><a href="#branch-${b.number}">${escapeHtml(branchTitle(b))}</a></li>`).join("")}</ol></nav>`
			: "",
	].join("\n");
	const sections = doc.branches.map((b) => {
		const title =
			doc.branch === "all"
				? `<h2>${escapeHtml(branchTitle(b))}</h2>${
						b.number > 1
							? `<p class="leaves">${escapeHtml(leavesWhere(b, (id) => number.get(id)))}${b.leavesAfter ? ` (<a href="#m-${escapeHtml(b.leavesAfter)}">go there</a>)` : ""}</p>`
							: ""
					}`
				: "";
		let state = "active";
		const messages = b.messages.map((m) => {
			const stretch =
				m.branchState !== state && STATE_NOTE[m.branchState] ? `<p class="stretch">${escapeHtml(STATE_NOTE[m.branchState])}</p>` : "";
			state = m.branchState;
			return stretch + messageHtml(m, number.get(m.entryId) ?? 0, forksAfter.get(m.entryId) ?? [], render);
		});
		return `<section class="branch" id="branch-${b.number}">${title}\n${messages.join("\n")}</section>`;
	});
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${await policy()}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="lookback">
<title>${escapeHtml(s.title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header>
${header}
</header>
<main>
${sections.join("\n")}
</main>
</body>
</html>
`;
}
