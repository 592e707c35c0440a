/** A tool call or its result on one line (name, first argument or first line), expandable to the whole text. */

import { useEffect, useState } from "preact/hooks";
import { firstArgument } from "../../../src/core/index.js";

interface Props {
	kind: "call" | "result";
	name: string;
	text: string;
	open?: boolean;
}

export function ToolLine({ kind, name, text, open = false }: Props) {
	const [expanded, setExpanded] = useState(open);
	// Opened again when it becomes the hit or the current find match; closing it stays the reader's choice.
	useEffect(() => {
		if (open) setExpanded(true);
	}, [open]);
	const summary = firstArgument(text).slice(0, 160);
	const failed = kind === "result" && /^(error|Error:|.*\bexit code [1-9])/m.test(text.slice(0, 400));
	return (
		<div class={`tool ${kind}${failed ? " failed" : ""}`}>
			<button type="button" class="tool-line" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
				<span class="arrow">{expanded ? "▾" : "▸"}</span> <span class="tool-name">{kind === "call" ? `→ ${name}` : `← ${name}`}</span>{" "}
				<span class="tool-arg">{summary}</span>
				{failed ? <span class="badge error">error</span> : null}
			</button>
			{expanded ? <pre class="tool-text">{text}</pre> : null}
		</div>
	);
}
