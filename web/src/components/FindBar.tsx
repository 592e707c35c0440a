/** Find in the session being read: a box, the count, and steps to the next and previous message that has the text. */

import type { RefObject } from "preact";

interface Props {
	input: RefObject<HTMLInputElement | null>;
	query: string;
	/** Position of the current match among `count` messages that match, from 0. */
	at: number;
	count: number;
	onQuery(query: string): void;
	onStep(by: 1 | -1): void;
	onClose(): void;
}

export function FindBar({ input, query, at, count, onQuery, onStep, onClose }: Props) {
	return (
		<search class="find" aria-label="find in this session">
			<input
				ref={input}
				id="find"
				type="text"
				autocomplete="off"
				spellcheck={false}
				placeholder="find in this session"
				value={query}
				onInput={(e) => onQuery(e.currentTarget.value)}
				onKeyDown={(e) => {
					// Enter and Escape belong to the find box here, not to the list behind it.
					if (e.key === "Enter") onStep(e.shiftKey ? -1 : 1);
					else if (e.key === "Escape") onClose();
					else return;
					e.preventDefault();
					e.stopPropagation();
				}}
			/>
			<span class="find-count" aria-live="polite">
				{query ? (count ? `${at + 1} of ${count} messages` : "no match") : ""}
			</span>
			<button type="button" class="find-prev" title="previous (Shift+Enter)" disabled={!count} onClick={() => onStep(-1)}>
				↑
			</button>
			<button type="button" class="find-next" title="next (Enter)" disabled={!count} onClick={() => onStep(1)}>
				↓
			</button>
			<button type="button" class="link find-close" title="close (Esc)" onClick={onClose}>
				×
			</button>
		</search>
	);
}
