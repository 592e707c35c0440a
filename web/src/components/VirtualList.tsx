/** A long list rendered a screenful at a time (@tanstack/virtual-core), rows measured as they render. */

import { elementScroll, measureElement, observeElementOffset, observeElementRect, Virtualizer } from "@tanstack/virtual-core";
import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef } from "preact/hooks";

interface Props<T> {
	items: T[];
	estimate: number;
	keyOf(item: T, index: number): string;
	render(item: T, index: number): ComponentChildren;
	/** Row to bring into view (centre) when it changes. */
	scrollTo?: number;
	class?: string;
}

export function VirtualList<T>(props: Props<T>) {
	const scroller = useRef<HTMLDivElement>(null);
	const [, redraw] = useReducer((n: number) => n + 1, 0);
	const options = () => ({
		count: props.items.length,
		getScrollElement: () => scroller.current,
		estimateSize: () => props.estimate,
		getItemKey: (i: number) => props.keyOf(props.items[i], i),
		observeElementRect,
		observeElementOffset,
		scrollToFn: elementScroll,
		measureElement,
		overscan: 6,
		onChange: () => redraw(undefined),
	});
	const virtualizer = useMemo(() => new Virtualizer<HTMLDivElement, HTMLDivElement>(options()), []);
	virtualizer.setOptions(options());
	useLayoutEffect(() => virtualizer._didMount(), []);
	useLayoutEffect(() => virtualizer._willUpdate());
	useEffect(() => {
		if (props.scrollTo !== undefined && props.scrollTo >= 0 && props.scrollTo < props.items.length)
			virtualizer.scrollToIndex(props.scrollTo, { align: "center" });
	}, [props.scrollTo, props.items]);
	return (
		<div ref={scroller} class={`scroller ${props.class ?? ""}`}>
			<div style={{ height: `${virtualizer.getTotalSize()}px`, position: "relative" }}>
				{virtualizer.getVirtualItems().map((row) => (
					<div
						key={row.key}
						data-index={row.index}
						ref={(el) => {
							if (el) virtualizer.measureElement(el);
						}}
						class="vrow"
						style={{ transform: `translateY(${row.start}px)` }}
					>
						{props.render(props.items[row.index], row.index)}
					</div>
				))}
			</div>
		</div>
	);
}
