/**
 * Session text as HTML, safely, for the viewer and the HTML export alike: markdown-it with raw HTML off (a tag in
 * a transcript shows as text), links only to http(s) and mailto (a `javascript:` link stays text), and images
 * shown as their alt text, so that nothing remote ever loads. A face may add code highlighting (`highlight`).
 * The caller hands markdown-it's class: the viewer imports it, an export loads it on first use.
 */

import type MarkdownIt from "markdown-it";

export interface SafeMarkdownOptions {
	/** Highlighted HTML of a fenced block, escaped by the highlighter, or "" to let markdown-it escape it. */
	highlight?: (code: string, lang: string) => string;
}

export function safeMarkdown(Markdown: typeof MarkdownIt, options: SafeMarkdownOptions = {}): (text: string) => string {
	const md = new Markdown({ html: false, linkify: true, breaks: false, highlight: options.highlight ?? null });
	md.validateLink = (url) => /^(https?:|mailto:)/i.test(url.trim());
	md.renderer.rules.image = (tokens, idx) => md.utils.escapeHtml(`[image: ${tokens[idx].content || "no description"}]`);
	const linkOpen = md.renderer.rules.link_open ?? ((tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts));
	md.renderer.rules.link_open = (tokens, idx, opts, env, self) => {
		tokens[idx].attrSet("rel", "noopener noreferrer nofollow");
		tokens[idx].attrSet("target", "_blank");
		return linkOpen(tokens, idx, opts, env, self);
	};
	return (text) => md.render(text);
}
