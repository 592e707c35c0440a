/** Sessions per day over the indexed period, as bars; a click filters the list to that day. */

import type { ActivityDay } from "../../../src/core/index.js";
import { plural } from "./format.js";

const DAY = 86_400_000;

export function ActivityChart({ days, selected, onPick }: { days: ActivityDay[]; selected: string; onPick(day: string): void }) {
	if (days.length === 0) return <p class="notice">no activity yet</p>;
	const byDay = new Map(days.map((d) => [d.day, d]));
	const first = Date.parse(days[0].day);
	const last = Date.parse(days[days.length - 1].day);
	const span = Math.min(365, Math.round((last - first) / DAY) + 1);
	const all = Array.from({ length: span }, (_, i) => new Date(last - (span - 1 - i) * DAY).toISOString().slice(0, 10));
	const most = Math.max(...days.map((d) => d.sessions));
	const width = 100 / span;
	return (
		<figure class="activity">
			<svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label="sessions per day">
				{all.map((day, i) => {
					const d = byDay.get(day);
					const h = d ? Math.max(2, (d.sessions / most) * 38) : 0;
					return (
						// biome-ignore lint/a11y/useSemanticElements: a bar of an SVG chart cannot be a <button>; it takes the role and the keys of one
						<rect
							key={day}
							data-day={day}
							class={`bar${day === selected ? " picked" : ""}`}
							x={i * width}
							y={40 - h}
							width={Math.max(width * 0.8, 0.3)}
							height={h}
							role="button"
							tabIndex={d ? 0 : -1}
							aria-disabled={!d}
							onClick={() => d && onPick(day)}
							onKeyDown={(e) => d && e.key === "Enter" && onPick(day)}
						>
							<title>{d ? `${day}: ${plural(d.sessions, "session")}, ${plural(d.messages, "message")}` : day}</title>
						</rect>
					);
				})}
			</svg>
			<figcaption>
				{all[0]} – {all[all.length - 1]} ·{" "}
				{plural(
					days.reduce((n, d) => n + d.sessions, 0),
					"session",
				)}
				,{" "}
				{plural(
					days.reduce((n, d) => n + d.messages, 0),
					"message",
				)}
			</figcaption>
		</figure>
	);
}
