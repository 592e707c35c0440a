/**
 * A year of activity as a calendar: one square a day, a column a week (Monday on top), darker for more messages.
 * One tab stop: the arrow keys move a day (up, down) or a week (left, right), a line reads the day out, Enter or a
 * click lists that day's sessions.
 */

import { useEffect, useMemo, useState } from "preact/hooks";
import { type Dashboard, formatUsd } from "../../../src/core/index.js";
import { plural } from "./format.js";

/** At most a year of weeks; fewer when the history is shorter (never under 8), each square at most 16 px wide. */
const MAX_WEEKS = 53;
const MIN_WEEKS = 8;
const CELL = 12;
const DAY_MS = 86_400_000;

interface Cell {
	day: string;
	week: number;
	weekday: number;
	data?: Dashboard["days"][number];
}

function localKey(date: Date): string {
	const pad = (n: number) => String(n).padStart(2, "0");
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function dateOf(key: string): Date {
	const [y, m, d] = key.split("-").map(Number);
	return new Date(y, m - 1, d);
}

/** The weeks up to the last day with use, a column of 7 days each (Monday first). */
function cells(days: Dashboard["days"]): { weeks: number; grid: Cell[] } {
	const byDay = new Map(days.map((d) => [d.day, d]));
	const last = dateOf(days[days.length - 1]?.day ?? localKey(new Date()));
	const monday = new Date(last.getTime() - ((last.getDay() + 6) % 7) * DAY_MS);
	const span = days.length > 0 ? Math.ceil((monday.getTime() - dateOf(days[0].day).getTime()) / (7 * DAY_MS)) + 1 : 1;
	const weeks = Math.max(MIN_WEEKS, Math.min(MAX_WEEKS, span));
	const start = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() - 7 * (weeks - 1));
	const out: Cell[] = [];
	for (let i = 0; i < weeks * 7; i++) {
		const date = new Date(start.getFullYear(), start.getMonth(), start.getDate() + i);
		if (date > last) break;
		const day = localKey(date);
		out.push({ day, week: Math.floor(i / 7), weekday: i % 7, data: byDay.get(day) });
	}
	return { weeks, grid: out };
}

export function CalendarHeatmap({ days, onPick }: { days: Dashboard["days"]; onPick(day: string): void }) {
	const { weeks, grid } = useMemo(() => cells(days), [days]);
	const dayIndex = useMemo(() => new Map(grid.map((c, i) => [c.day, i])), [grid]);
	const most = Math.max(1, ...days.map((d) => d.messages));
	const [at, setAt] = useState(grid.length - 1);
	useEffect(() => setAt(grid.length - 1), [grid]);
	const level = (c: Cell) => (c.data ? Math.min(4, 1 + Math.floor((3.999 * c.data.messages) / most)) : 0);
	const cell = grid[Math.max(0, Math.min(grid.length - 1, at))];
	const say = (c: Cell | undefined) =>
		c
			? c.data
				? `${c.day}: ${plural(c.data.sessions, "session")}, ${plural(c.data.messages, "message")}, ${formatUsd(c.data.costUsd)}`
				: `${c.day}: nothing`
			: "";
	const onKey = (e: KeyboardEvent) => {
		const step = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 }[e.key];
		if (step !== undefined) setAt((i) => Math.max(0, Math.min(grid.length - 1, i + step)));
		else if (e.key === "Enter" && cell?.data) onPick(cell.day);
		else return;
		e.preventDefault();
	};
	return (
		<figure class="calendar">
			{/* A slider over the days: one tab stop, its value the day under the cursor, read out as text. */}
			<div
				class="calendar-box"
				role="slider"
				tabIndex={0}
				aria-label="messages per day over the last year (Enter lists the day's sessions)"
				aria-valuemin={0}
				aria-valuemax={grid.length - 1}
				aria-valuenow={at}
				aria-valuetext={say(cell)}
				onKeyDown={onKey}
			>
				{/* A click on a day is the pointer's way to what Enter does on the focused one: one listener for the
				    year's days, not one on each of them (a first paint makes ~370). */}
				<svg
					viewBox={`0 0 ${weeks * CELL} ${7 * CELL}`}
					style={{ maxWidth: `${weeks * 16}px` }}
					aria-hidden="true"
					onClick={(e) => {
						const i = dayIndex.get((e.target as Element).getAttribute("data-day") ?? "");
						if (i === undefined) return;
						setAt(i);
						if (grid[i].data) onPick(grid[i].day);
					}}
				>
					{grid.map((c, i) => (
						<rect
							key={c.day}
							data-day={c.day}
							class={`day l${level(c)}${i === at ? " at" : ""}`}
							x={c.week * CELL + 1}
							y={c.weekday * CELL + 1}
							width={CELL - 2}
							height={CELL - 2}
							rx={2}
						>
							<title>{say(c)}</title>
						</rect>
					))}
				</svg>
			</div>
			<figcaption aria-hidden="true">{say(cell)}</figcaption>
		</figure>
	);
}
