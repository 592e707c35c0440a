/**
 * Session text as HTML, safely (core's safeMarkdown: raw HTML off, links only to http(s) and mailto, images as
 * their alt text), code highlighted by highlight.js (its output escapes the code).
 */

import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import MarkdownIt from "markdown-it";
import { safeMarkdown } from "../../src/core/index.js";

for (const [name, lang] of Object.entries({ bash, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml }))
	hljs.registerLanguage(name, lang);
hljs.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

const render = safeMarkdown(MarkdownIt, {
	highlight(code, lang) {
		const name = lang && hljs.getLanguage(lang) ? lang : undefined;
		if (!name) return ""; // markdown-it escapes it
		return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
	},
});

export function markdownHtml(text: string): string {
	return render(text);
}
