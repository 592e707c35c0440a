/** What one session used, in its reader: cost and tokens, by model, its tool calls as a histogram, the files it edited. */

import { compactCount, type SessionUsage as Usage } from "../../../src/core/index.js";
import { BarList } from "./BarList.js";
import { costText } from "./Dashboard.js";
import { plural } from "./format.js";

export function SessionUsage({ usage }: { usage: Usage }) {
	if (usage.messages === 0 && usage.tokens === 0 && usage.tools.length === 0) return null;
	const most = Math.max(1, ...usage.tools.map((t) => t.calls));
	const calls = usage.tools.reduce((n, t) => n + t.calls, 0);
	const errors = usage.tools.reduce((n, t) => n + t.errors, 0);
	const summary = [
		usage.costUsd > 0 || usage.unpricedMessages === 0 ? costText(usage.costUsd, usage.estimatedUsd > 0) : "cost unknown",
		`${compactCount(usage.tokens)} tokens`,
		plural(calls, "tool call"),
		...(errors > 0 ? [`${errors} failed`] : []),
		...(usage.files.length > 0 ? [`${plural(usage.files.length, "file")} edited`] : []),
	].join(" · ");
	return (
		<details class="session-usage">
			<summary>usage: {summary}</summary>
			<table class="usage-models">
				<thead>
					<tr>
						<th scope="col">model</th>
						<th scope="col">answers</th>
						<th scope="col">tokens</th>
						<th scope="col">cost</th>
					</tr>
				</thead>
				<tbody>
					{usage.models.map((m) => (
						<tr key={`${m.provider}/${m.model}`}>
							<th scope="row">{m.model}</th>
							<td>{m.messages}</td>
							<td>{compactCount(m.tokens)}</td>
							<td>{m.costUsd === 0 && m.unpricedMessages > 0 ? "no price" : costText(m.costUsd, m.estimatedUsd > 0)}</td>
						</tr>
					))}
				</tbody>
			</table>
			<p class="facts">
				input {compactCount(usage.input)} · output {compactCount(usage.output)} · cache read {compactCount(usage.cacheRead)} · cache write{" "}
				{compactCount(usage.cacheWrite)}
				{usage.estimatedUsd > 0 ? " · * estimated at list prices" : ""}
				{usage.copiedMessages > 0
					? ` · ${plural(usage.copiedMessages, "answer")} copied from the session it was forked from, counted there`
					: ""}
			</p>
			<BarList
				label="tool calls by tool"
				bars={usage.tools.map((t) => ({
					key: t.tool,
					label: t.tool,
					value: t.calls / most,
					part: t.calls > 0 ? t.errors / t.calls : 0,
					figure: `${t.calls}${t.errors > 0 ? ` · ${t.errors} failed` : ""}`,
				}))}
			/>
			{usage.files.length > 0 ? (
				<ul class="files-edited" aria-label="files edited">
					{usage.files.slice(0, 50).map((f) => (
						<li key={f.path}>
							<code>{f.path}</code>
							{f.edits > 1 ? ` ×${f.edits}` : ""}
						</li>
					))}
				</ul>
			) : null}
		</details>
	);
}
