/**
 * Marks of find-in-session, drawn with the CSS Custom Highlight API: ranges over the rendered text, so the
 * rendered markdown is never rewritten. Rows of the virtual list come and go as it scrolls: a mutation
 * observer marks the new ones.
 */

import { useEffect } from "preact/hooks";

// The registry is a maplike whose methods TypeScript declares only in the DOM.Iterable lib, which the project leaves out.
const registry = () => CSS.highlights as unknown as Map<string, Highlight>;

/** Ranges of every case-insensitive occurrence of `needle` in the text under `root`. */
function rangesOf(root: Element, needle: string): Range[] {
	const ranges: Range[] = [];
	const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	for (let node = walker.nextNode(); node; node = walker.nextNode()) {
		const text = (node.nodeValue ?? "").toLowerCase();
		for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
			const range = new Range();
			range.setStart(node, at);
			range.setEnd(node, at + needle.length);
			ranges.push(range);
		}
	}
	return ranges;
}

/** Highlight `query` in the messages under `container`, those of the entry `current` with the current mark. */
export function useFindHighlights(container: () => Element | null | undefined, query: string, current: string | undefined): void {
	useEffect(() => {
		const root = container();
		const needle = query.toLowerCase();
		if (!root || !needle || typeof Highlight === "undefined") return;
		let frame = 0;
		const draw = () => {
			frame = 0;
			const all: Range[] = [];
			const now: Range[] = [];
			root.querySelectorAll<HTMLElement>(".message").forEach((message) => {
				(message.dataset.entry === current ? now : all).push(...rangesOf(message, needle));
			});
			registry().set("find", new Highlight(...all));
			registry().set("find-current", new Highlight(...now));
		};
		draw();
		const observer = new MutationObserver(() => {
			if (!frame) frame = requestAnimationFrame(draw);
		});
		observer.observe(root, { childList: true, subtree: true, characterData: true });
		return () => {
			observer.disconnect();
			cancelAnimationFrame(frame);
			registry().delete("find");
			registry().delete("find-current");
		};
	}, [query, current]);
}
