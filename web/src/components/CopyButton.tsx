/** The resume command with a button that copies it. */

import { useState } from "preact/hooks";

export function CopyButton({ text }: { text: string }) {
	const [copied, setCopied] = useState(false);
	return (
		<span class="copy">
			<code>{text}</code>
			<button
				type="button"
				onClick={async () => {
					try {
						await navigator.clipboard.writeText(text);
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
