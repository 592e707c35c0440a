/** One line of a list: a recent session (browse) or a search result. */

import { formatUsd, type SearchHit, type SessionSummary, shortTime } from "../../../src/core/index.js";
import { plural, titleOf } from "./format.js";
import { Snippet } from "./Snippet.js";

interface Props {
	session: SessionSummary | SearchHit;
	selected: boolean;
	href: string;
	onOpen(): void;
}

export function SessionRow({ session, selected, href, onOpen }: Props) {
	const hit = "snippet" in session ? session : undefined;
	const facts = [
		session.project,
		session.agent,
		shortTime(hit?.time ?? session.modified),
		hit ? plural(hit.hits, "hit") : plural(session.messageCount, "message"),
		session.usage?.costUsd !== undefined ? `${formatUsd(session.usage.costUsd)}${session.usage.estimated ? "*" : ""}` : "",
	];
	return (
		<div class={`row${selected ? " selected" : ""}`} aria-current={selected}>
			<a
				class="title"
				href={href}
				onClick={(e) => {
					e.preventDefault();
					onOpen();
				}}
			>
				{titleOf(session)}
			</a>
			<div class="facts">
				{facts.filter(Boolean).join(" · ")}
				{hit && hit.branchState !== "active" ? <span class={`badge ${hit.branchState}`}>{hit.branchState}</span> : null}
			</div>
			{hit ? (
				<Snippet text={hit.snippet} />
			) : session.name && session.firstPrompt ? (
				<p class="prompt">{session.firstPrompt.slice(0, 200)}</p>
			) : null}
		</div>
	);
}
