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
		// Over a team: the machine whose shard holds it.
		(session as { shard?: string }).shard ?? "",
		session.project,
		session.agent,
		shortTime(hit?.time ?? session.modified),
		hit ? plural(hit.hits, "hit") : plural(session.messageCount, "message"),
		session.usage?.costUsd !== undefined ? `${formatUsd(session.usage.costUsd)}${session.usage.estimated ? "*" : ""}` : "",
	];
	const open = (e: MouseEvent) => {
		// A new tab, or a click that ended a selection of the text, is the browser's; a plain click opens the session.
		if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
		e.preventDefault();
		if (!getSelection()?.isCollapsed) return;
		onOpen();
	};
	return (
		<div class={`row${selected ? " selected" : ""}`} aria-current={selected}>
			<a class="title" href={href} onClick={open}>
				{titleOf(session)}
			</a>
			<div class="facts">
				{facts.filter(Boolean).join(" · ")}
				{hit && hit.branchState !== "active" ? <span class={`badge ${hit.branchState}`}>{hit.branchState}</span> : null}
				{session.source === "gone" ? (
					<span class="badge gone" title={`its file was removed ${shortTime(session.goneAt)}; kept in lookback's archive`}>
						gone
					</span>
				) : null}
			</div>
			{/* The text people aim at opens the hit too; one tab stop per row (the title). */}
			{hit ? (
				<a class="excerpt" href={href} onClick={open} tabIndex={-1}>
					<Snippet text={hit.snippet} />
				</a>
			) : session.name && session.firstPrompt ? (
				<a class="excerpt" href={href} onClick={open} tabIndex={-1}>
					<p class="prompt">{session.firstPrompt.slice(0, 200)}</p>
				</a>
			) : null}
		</div>
	);
}
