/** Text made inert for where an export puts it: HTML text and attributes, Markdown text, a fenced block, prose that is Markdown. */

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Text shown as itself in Markdown: its punctuation escaped, so nothing in it makes a link, a tag or emphasis. */
export function markdownText(text: string): string {
	return text.replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`).replace(/\s*\n\s*/g, " ");
}

/** A fenced block that `text` cannot close early: one backtick more than its longest run, at least three. */
export function fenced(text: string, lang = ""): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	const fence = "`".repeat(Math.max(3, longest + 1));
	return `${fence}${lang}\n${text}\n${fence}`;
}

/** Link targets a Markdown reader may run or load: the link stays, its target does not. */
const UNSAFE_TARGET = /\]\(\s*<?\s*(?:javascript|vbscript|data|file):[^)]*\)/gi;

/**
 * Prose kept as Markdown (an assistant's answer is Markdown) but inert in any renderer: outside code, `<` is
 * escaped, so no tag of the transcript is HTML, and links to `javascript:`, `data:`, `file:` lose their target.
 */
export function inertMarkdown(prose: string): string {
	const out: string[] = [];
	let fence: string | undefined;
	for (const line of prose.split("\n")) {
		const opens = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence !== undefined) {
			out.push(line);
			if (opens && opens[0] === fence[0] && opens.length >= fence.length && line.trim() === opens) fence = undefined;
			continue;
		}
		if (opens) {
			fence = opens;
			out.push(line);
			continue;
		}
		// Inline code spans (a run of backticks to the same run) stay as they are.
		out.push(
			line
				.split(/(`+[^`]*?`+)/)
				.map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "\\<").replace(UNSAFE_TARGET, "](#unsafe-link-removed)")))
				.join(""),
		);
	}
	return out.join("\n");
}
