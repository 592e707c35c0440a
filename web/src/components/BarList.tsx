/** A ranked list with a bar each (projects, models, tools): the label a button when picking it filters, the figure beside it. */

import type { ComponentChildren } from "preact";

export interface Bar {
	key: string;
	label: string;
	/** Share of the largest, 0–1. */
	value: number;
	/** A second part of the bar, 0–1 of this bar (a tool's errors). */
	part?: number;
	figure: ComponentChildren;
	title?: string;
}

export function BarList({ bars, label, onPick }: { bars: Bar[]; label: string; onPick?(key: string): void }) {
	if (bars.length === 0) return <p class="notice">none</p>;
	return (
		<ol class="bars" aria-label={label}>
			{bars.map((b) => (
				<li key={b.key} title={b.title}>
					<span class="bar-label">
						{onPick ? (
							<button type="button" class="link" onClick={() => onPick(b.key)}>
								{b.label}
							</button>
						) : (
							b.label
						)}
					</span>
					<span class="bar-figure">{b.figure}</span>
					<span class="bar-track" aria-hidden="true">
						<span class="bar-fill" style={{ width: `${Math.max(0.5, b.value * 100)}%` }}>
							{b.part ? <span class="bar-part" style={{ width: `${b.part * 100}%` }} /> : null}
						</span>
					</span>
				</li>
			))}
		</ol>
	);
}
