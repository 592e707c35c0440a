/** The resume command with a button that copies it; what leaves by the clipboard is redacted. */

import { useState } from "preact/hooks";
import { loadRedaction, redactText } from "../../../src/core/index.js";

export function CopyButton({ text }: { text: string }) {
	const [copied, setCopied] = useState(false);
	return (
		<span class="copy">
			<code>{text}</code>
			<button
				type="button"
				onClick={async () => {
					try {
						await loadRedaction();
						await navigator.clipboard.writeText(redactText(text));
						setCopied(true);
					} catch {
						setCopied(false);
					}
				}}
			>
				{copied ? "copied" : "copy"}
			</button>
		</span>
	);
}
