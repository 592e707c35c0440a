/**
 * Cost (or tokens) per period, stacked by model or agent, drawn by uPlot on a canvas: 23 KB gzipped, fast at
 * thousands of bars. A canvas says nothing to a screen reader or a keyboard, so the chart takes the focus and moves
 * its cursor with the arrow keys (Enter opens that day's sessions), a live line reads out the period under the
 * cursor, and the figures are in a table below it.
 */

import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import { compactCount, type Dashboard, formatUsd } from "../../../src/core/index.js";

/** Colours of the series (Tableau 10), "other" in grey. */
const COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"];
const OTHER = "#bab0ac";

/** A period's length in days, for the room a bar needs at the chart's ends (a month as its mean). */
const PERIOD_DAYS: Record<Dashboard["period"], number> = { day: 1, week: 7, month: 30.44 };

const colourOf = (series: string[], i: number) => (series[i] === "other" ? OTHER : COLOURS[i % COLOURS.length]);

interface Props {
	dashboard: Dashboard;
	metric: "cost" | "tokens";
	/** A period picked (a day: its sessions are listed). */
	onPick?(period: string): void;
}

/** A period key as a local date (uPlot's time axis is in local time): a day, a week's Monday, or a month. */
function periodDate(key: string): Date {
	const [y, m, d] = key.split("-").map(Number);
	return new Date(y, m - 1, d || 1);
}

function nextPeriod(date: Date, period: Dashboard["period"]): Date {
	const next = new Date(date);
	if (period === "month") next.setMonth(next.getMonth() + 1);
	else next.setDate(next.getDate() + (period === "week" ? 7 : 1));
	return next;
}

function keyOf(date: Date, period: Dashboard["period"]): string {
	const pad = (n: number) => String(n).padStart(2, "0");
	const month = `${date.getFullYear()}-${pad(date.getMonth() + 1)}`;
	return period === "month" ? month : `${month}-${pad(date.getDate())}`;
}

/** Every period from the first to the last, empty ones as zeros (bars keep their place in time). */
function filledPoints(d: Dashboard): Dashboard["points"] {
	if (d.points.length === 0) return [];
	const byKey = new Map(d.points.map((p) => [p.period, p]));
	const out: Dashboard["points"] = [];
	const last = periodDate(d.points[d.points.length - 1].period);
	for (let at = periodDate(d.points[0].period); at <= last && out.length < 2000; at = nextPeriod(at, d.period)) {
		const key = keyOf(at, d.period);
		out.push(byKey.get(key) ?? { period: key, cost: d.series.map(() => 0), tokens: d.series.map(() => 0) });
	}
	return out;
}

export function UsageChart({ dashboard, metric, onPick }: Props) {
	const box = useRef<HTMLDivElement>(null);
	const plot = useRef<uPlot | undefined>(undefined);
	const points = useMemo(() => filledPoints(dashboard), [dashboard]);
	const [at, setAt] = useState<number | null>(null);
	// The table's rows are made when it is opened: a cell per period and series, a quarter of the dashboard's
	// elements, that a first paint need not make while the table is closed.
	const [tableOpen, setTableOpen] = useState(false);
	const values = (i: number) => (metric === "cost" ? points[i].cost : points[i].tokens);
	const show = (v: number) => (metric === "cost" ? formatUsd(v) : compactCount(Math.round(v)));

	// Drawn before the browser paints (a plain effect runs a frame later): the chart shows with the figures, not after them.
	useLayoutEffect(() => {
		const el = box.current;
		if (!el || points.length === 0) return;
		const n = dashboard.series.length;
		const x = points.map((p) => periodDate(p.period).getTime() / 1000);
		// Stacked: series i is drawn up to the sum of series 0..i, the tallest first, each lower one over it.
		const sums = points.map((p) => {
			const v = metric === "cost" ? p.cost : p.tokens;
			let run = 0;
			return v.map((x) => (run += x));
		});
		const data: uPlot.AlignedData = [x, ...Array.from({ length: n }, (_, k) => sums.map((s) => s[n - 1 - k]))];
		const bars = uPlot.paths.bars?.({ size: [0.8, 48], align: 0 });
		const halfPeriod = (PERIOD_DAYS[dashboard.period] * 86_400) / 2;
		const opts: uPlot.Options = {
			width: el.clientWidth,
			height: 220,
			legend: { show: false },
			cursor: { drag: { x: false, y: false }, points: { show: false } },
			scales: {
				// Half a period more on each side: a bar is centred on its period's start, and the first and last were
				// half outside the plot (the first over the y axis).
				x: { time: true, range: (_u, min, max) => [min - halfPeriod, max + halfPeriod] },
				y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] },
			},
			axes: [
				{ stroke: "#555", grid: { show: false } },
				{ stroke: "#555", size: 64, values: (_u, ticks) => ticks.map(show) },
			],
			series: [
				{},
				...Array.from({ length: n }, (_, k) => {
					const i = n - 1 - k;
					const colour = colourOf(dashboard.series, i);
					return { label: dashboard.series[i], fill: colour, stroke: colour, width: 0, paths: bars, points: { show: false } };
				}),
			],
			hooks: { setCursor: [(u) => setAt(u.cursor.idx ?? null)] },
		};
		plot.current?.destroy();
		plot.current = new uPlot(opts, data, el);
		const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height: 220 }));
		resize.observe(el);
		return () => {
			resize.disconnect();
			plot.current?.destroy();
			plot.current = undefined;
		};
	}, [points, metric, dashboard.series, dashboard.period]);

	const move = (to: number) => {
		const u = plot.current;
		if (!u || points.length === 0) return;
		const i = Math.max(0, Math.min(points.length - 1, to));
		u.setCursor({ left: u.valToPos(u.data[0][i], "x"), top: u.bbox.height / (2 * devicePixelRatio) });
		setAt(i);
	};
	const onKey = (e: KeyboardEvent) => {
		const i = at ?? points.length - 1;
		if (e.key === "ArrowLeft" || e.key === "ArrowRight") move(at === null ? i : i + (e.key === "ArrowLeft" ? -1 : 1));
		else if (e.key === "Home") move(0);
		else if (e.key === "End") move(points.length - 1);
		else if (e.key === "Enter" && at !== null && dashboard.period === "day") onPick?.(points[at].period);
		else return;
		e.preventDefault();
	};

	if (points.length === 0) return <p class="notice">no usage recorded</p>;
	const shown = at !== null ? points[at] : undefined;
	const total = (i: number) => values(i).reduce((a, b) => a + b, 0);
	const readout = shown
		? `${shown.period}: ${show(total(at!))}${dashboard.series.map((name, i) => (values(at!)[i] > 0 ? ` · ${name} ${show(values(at!)[i])}` : "")).join("")}`
		: `${points[0].period} – ${points[points.length - 1].period}: arrow keys move along the periods`;
	return (
		<figure class="usage-chart">
			{/* A slider over the periods: its value is the period under the cursor, read out as text. */}
			<div
				ref={box}
				class="chart-box"
				tabIndex={0}
				role="slider"
				aria-label={`${metric} per ${dashboard.period}, stacked by ${dashboard.stackBy}`}
				aria-valuemin={0}
				aria-valuemax={points.length - 1}
				aria-valuenow={at ?? points.length - 1}
				aria-valuetext={readout}
				onKeyDown={onKey}
				onClick={() => at !== null && dashboard.period === "day" && onPick?.(points[at].period)}
			/>
			<p class="readout" aria-hidden="true">
				{readout}
			</p>
			<ul class="legend">
				{dashboard.series.map((name, i) => (
					<li key={name}>
						<span class="swatch" style={{ background: colourOf(dashboard.series, i) }} />
						{name}
					</li>
				))}
			</ul>
			<details class="chart-table" onToggle={(e) => setTableOpen(e.currentTarget.open)}>
				<summary>the figures as a table</summary>
				<table>
					<thead>
						<tr>
							<th scope="col">{dashboard.period}</th>
							{dashboard.series.map((s) => (
								<th scope="col" key={s}>
									{s}
								</th>
							))}
							<th scope="col">all</th>
						</tr>
					</thead>
					<tbody>
						{(tableOpen ? points : [])
							.filter((_p, i) => total(i) > 0)
							.map((p) => {
								const v = metric === "cost" ? p.cost : p.tokens;
								const all = v.reduce((a, b) => a + b, 0);
								// Each figure unrounded beside its text: rounded texts of many periods need not add up to the total, these do.
								return (
									<tr key={p.period}>
										<th scope="row">{p.period}</th>
										{v.map((x, i) => (
											<td key={dashboard.series[i]} data-value={x}>
												{show(x)}
											</td>
										))}
										<td data-value={all}>{show(all)}</td>
									</tr>
								);
							})}
					</tbody>
				</table>
			</details>
		</figure>
	);
}
