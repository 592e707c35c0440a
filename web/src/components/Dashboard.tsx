/**
 * What the sessions cost and how the work went, under the page's filters: totals, cost or tokens over time stacked by
 * model or agent, a year of activity, the top projects and models, tool calls and their error rate, and the most
 * expensive sessions, each a link into the reader. One call to the worker, which sums it all in SQL.
 */

import { useEffect, useRef, useState } from "preact/hooks";
import { compactCount, type Dashboard as Data, formatUsd, pricesLabel, thousands, type UsageRow } from "../../../src/core/index.js";
import type { Db } from "../db-client.js";
import type { ViewState } from "../view-state.js";
import { type Bar, BarList } from "./BarList.js";
import { CalendarHeatmap } from "./CalendarHeatmap.js";
import { plural, titleOf } from "./format.js";
import { type Opener, SessionLink } from "./SessionLink.js";
import { UsageChart } from "./UsageChart.js";

interface Props extends Opener {
	db: Db;
	state: ViewState;
	/** The index changed (opened again): ask again. */
	generation: unknown;
	onChange(patch: Partial<ViewState>, push?: boolean): void;
	/** The figures were painted (each time they are). */
	onShown?(): void;
}

/** A cost as shown, an estimate marked with `*` (the note under the totals says what it means). */
export function costText(usd: number, estimated: boolean): string {
	return `${formatUsd(usd)}${estimated ? "*" : ""}`;
}

function rowBars(rows: UsageRow[], label: (r: UsageRow) => string): Bar[] {
	const most = Math.max(...rows.map((r) => r.costUsd), 0);
	const mostTokens = Math.max(...rows.map((r) => r.tokens), 1);
	return rows.map((r) => ({
		key: r.key,
		label: label(r),
		value: most > 0 ? r.costUsd / most : r.tokens / mostTokens,
		figure: `${r.costUsd === 0 && r.unpricedMessages > 0 ? "no price" : costText(r.costUsd, r.estimatedUsd > 0)} · ${compactCount(r.tokens)} tokens`,
		title: `${plural(r.sessions, "session")}, ${plural(r.messages, "message")}`,
	}));
}

export function Dashboard({ db, state, generation, onChange, onShown, linkTo, onOpen }: Props) {
	const [data, setData] = useState<Data>();
	const [failure, setFailure] = useState<string>();
	const stackBy = state.stack === "agent" ? "agent" : "model";
	const metric = state.metric === "tokens" ? "tokens" : "cost";
	/** Whether the figures were asked for already: a filter changed after that (typed, perhaps) waits for a pause. */
	const asked = useRef(false);

	useEffect(() => {
		let current = true;
		const filters = {
			project: state.project || undefined,
			agent: state.agent || undefined,
			since: state.since || undefined,
			until: state.until || undefined,
		};
		const timer = setTimeout(
			() => {
				db.call("dashboard", { ...filters, stackBy }).then(
					(d) => {
						if (!current) return;
						setData(d);
						setFailure(undefined);
						document.body.dataset.dashboard = "ready";
					},
					(error: Error) => current && setFailure(error.message),
				);
			},
			asked.current ? 150 : 0,
		);
		asked.current = true;
		return () => {
			current = false;
			clearTimeout(timer);
		};
	}, [generation, state.project, state.agent, state.since, state.until, stackBy]);

	// After the browser painted them (a plain effect runs then).
	useEffect(() => {
		if (data) onShown?.();
	}, [data]);

	if (failure) return <p class="failure">{failure}</p>;
	if (!data) return <p class="notice">summing the sessions…</p>;
	const t = data.total;
	const pickDay = (day: string) => onChange({ view: "", since: day, until: day }, true);
	const errorRate = data.tools.calls > 0 ? data.tools.errors / data.tools.calls : 0;
	const mostCalls = Math.max(1, ...data.tools.byTool.map((x) => x.calls));
	return (
		<div class="dashboard">
			<section class="totals" aria-label="totals">
				<div class="total cost">
					<span class="figure">{costText(t.costUsd, t.estimatedUsd > 0)}</span>
					<span class="what">cost</span>
				</div>
				<div class="total">
					<span class="figure">{compactCount(t.tokens)}</span>
					<span class="what">tokens</span>
				</div>
				<div class="total">
					<span class="figure">{thousands(t.sessions)}</span>
					<span class="what">sessions</span>
				</div>
				<div class="total">
					<span class="figure">{thousands(t.messages)}</span>
					<span class="what">answers</span>
				</div>
				<div class="total">
					<span class="figure">{thousands(data.tools.calls)}</span>
					<span class="what">tool calls, {(errorRate * 100).toFixed(1)}% failed</span>
				</div>
				<p class="note">
					{t.estimatedUsd > 0
						? `* ${formatUsd(t.estimatedUsd)} of it estimated at list prices (${pricesLabel(data.prices)}) for sessions that recorded tokens but no cost. `
						: ""}
					{t.unpricedMessages > 0 ? `${plural(t.unpricedMessages, "answer")} of models with no known price are not in the cost.` : ""}
				</p>
			</section>
			<section class="panel wide" aria-labelledby="over-time">
				<h2 class="pane-title" id="over-time">
					{metric} per {data.period}, by {stackBy}
				</h2>
				<div class="chart-controls">
					<label>
						show{" "}
						<select value={metric} onChange={(e) => onChange({ metric: e.currentTarget.value === "tokens" ? "tokens" : "" })}>
							<option value="cost">cost</option>
							<option value="tokens">tokens</option>
						</select>
					</label>
					<label>
						stacked by{" "}
						<select value={stackBy} onChange={(e) => onChange({ stack: e.currentTarget.value === "agent" ? "agent" : "" })}>
							<option value="model">model</option>
							<option value="agent">agent</option>
						</select>
					</label>
				</div>
				<UsageChart dashboard={data} metric={metric} onPick={pickDay} />
			</section>
			<section class="panel wide" aria-labelledby="calendar">
				<h2 class="pane-title" id="calendar">
					activity
				</h2>
				<CalendarHeatmap days={data.days} onPick={pickDay} />
			</section>
			<section class="panel" aria-labelledby="top-projects">
				<h2 class="pane-title" id="top-projects">
					top projects
				</h2>
				<BarList bars={rowBars(data.projects, (r) => r.key)} label="projects by cost" onPick={(project) => onChange({ project })} />
			</section>
			<section class="panel" aria-labelledby="top-models">
				<h2 class="pane-title" id="top-models">
					top models
				</h2>
				<BarList bars={rowBars(data.models, (r) => r.key)} label="models by cost" />
				<BarList
					bars={rowBars(data.agents, (r) => r.key)}
					label="agents by cost"
					onPick={(agent) => onChange({ agent: agent as ViewState["agent"] })}
				/>
			</section>
			<section class="panel" aria-labelledby="tools">
				<h2 class="pane-title" id="tools">
					tool calls · {(errorRate * 100).toFixed(1)}% errors
				</h2>
				<BarList
					label="tool calls by tool"
					bars={data.tools.byTool.map((x) => ({
						key: x.tool,
						label: x.tool,
						value: x.calls / mostCalls,
						part: x.calls > 0 ? x.errors / x.calls : 0,
						figure: `${thousands(x.calls)}${x.errors > 0 ? ` · ${thousands(x.errors)} failed` : ""}`,
					}))}
				/>
			</section>
			<section class="panel" aria-labelledby="blocks">
				<h2 class="pane-title" id="blocks">
					billing blocks (5 hours)
				</h2>
				<ol class="blocks">
					{data.blocks.map((b) => (
						<li key={b.start} class={b.active ? "active" : undefined}>
							<span class="title">
								{new Date(b.start).toLocaleString(undefined, {
									dateStyle: "medium",
									timeStyle: "short",
									timeZone: data.utc ? "UTC" : undefined,
								})}
								{b.active ? " · active" : ""}
							</span>
							<span class="facts">
								{costText(b.costUsd, b.estimatedUsd > 0)} · {compactCount(b.tokens)} tokens · {thousands(b.messages)} messages
								{b.active && data.activeBlock
									? ` · ${Math.floor(data.activeBlock.minutesLeft / 60)}h ${data.activeBlock.minutesLeft % 60}m left${data.activeBlock.projection ? ` · projected ${costText(data.activeBlock.projection.costUsd, b.estimatedUsd > 0)}` : ""}`
									: ""}
							</span>
						</li>
					))}
				</ol>
			</section>
			<section class="panel" aria-labelledby="expensive">
				<h2 class="pane-title" id="expensive">
					most expensive sessions
				</h2>
				<ol class="expensive">
					{data.sessions.map((s) => (
						<li key={s.sessionId}>
							<SessionLink to={{ linkTo, onOpen }} session={s.sessionId} class="title">
								{titleOf(s)}
							</SessionLink>
							<span class="facts">
								{costText(s.usage.costUsd ?? 0, s.usage.estimated === true)} · {compactCount(s.usage.tokens)} tokens · {s.project} ·{" "}
								{s.agent}
							</span>
						</li>
					))}
				</ol>
			</section>
		</div>
	);
}
