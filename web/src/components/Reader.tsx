/**
 * A session as a conversation, on the branch through the hit, the hit scrolled into view; the branches
 * that leave it, compacted stretches and omp sub-agents marked and linked; find-in-session (Ctrl/Cmd+F).
 */

import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import {
	type ExportBranchChoice,
	type ExportFormat,
	type LinkedSession,
	type SessionView,
	type SideBranch,
	shortTime,
} from "../../../src/core/index.js";
import { BranchSummary, ForkMarker } from "./Branches.js";
import { CopyButton } from "./CopyButton.js";
import { ExportButtons, type ExportedFile } from "./ExportButtons.js";
import { FindBar } from "./FindBar.js";
import { useFindHighlights } from "./find-highlight.js";
import { plural, titleOf } from "./format.js";
import { Message } from "./Message.js";
import { type Opener, SessionLink } from "./SessionLink.js";
import { SessionUsage } from "./SessionUsage.js";
import { VirtualList } from "./VirtualList.js";

interface Props extends Opener {
	view: SessionView;
	entry: string;
	onClose(): void;
	/** The session exported (redacted) for a download. */
	exportAs(format: ExportFormat, branch: ExportBranchChoice): Promise<ExportedFile>;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const item of items) {
		const k = key(item) ?? "";
		groups.set(k, [...(groups.get(k) ?? []), item]);
	}
	return groups;
}

/** Where a stretch of another state starts on the branch shown. */
const STRETCH: Record<string, string> = {
	compacted: "compacted stretch: summarized by a later compaction, no longer in the model's context",
	abandoned: "the abandoned branch starts here",
};

export function Reader({ view, entry, linkTo, onOpen, onClose, exportAs }: Props) {
	const s = view.session;
	const structure = view.structure;
	const to: Opener = { linkTo, onOpen };
	const focus = entry ? view.messages.findIndex((m) => m.entryId === entry) : -1;

	const [finding, setFinding] = useState(false);
	const [findQuery, setFindQuery] = useState("");
	const [findAt, setFindAt] = useState(0);
	const findInput = useRef<HTMLInputElement>(null);
	const article = useRef<HTMLElement>(null);
	const needle = finding ? findQuery.trim().toLowerCase() : "";
	const matches = useMemo(
		() => (needle ? view.messages.flatMap((m, i) => (m.text.toLowerCase().includes(needle) ? [i] : [])) : []),
		[view.messages, needle],
	);
	const at = matches.length > 0 ? ((findAt % matches.length) + matches.length) % matches.length : 0;
	const found = matches.length > 0 ? matches[at] : undefined;
	const foundEntry = found !== undefined ? view.messages[found].entryId : undefined;
	useFindHighlights(() => article.current?.querySelector(".messages"), needle, foundEntry);
	useEffect(() => setFindAt(0), [s.sessionId, view.branchTip]);
	useEffect(() => {
		const onKey = (e: KeyboardEvent) => {
			if (!((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "f")) return;
			e.preventDefault();
			setFinding(true);
			findInput.current?.select();
		};
		addEventListener("keydown", onKey);
		return () => removeEventListener("keydown", onKey);
	}, []);
	useLayoutEffect(() => {
		if (finding) findInput.current?.select();
	}, [finding]);

	const forksAfter = useMemo(() => groupBy<SideBranch>(structure?.branches ?? [], (b) => b.after), [structure]);
	const spawned = useMemo(() => groupBy<LinkedSession>(structure?.subagents ?? [], (a) => a.entryId), [structure]);
	const spawnedBy = structure?.spawnedByEntryId ?? s.spawnedByEntryId;
	const forks = (branches: SideBranch[] | undefined) =>
		branches?.map((b) => <ForkMarker key={b.entryId} branch={b} session={s.sessionId} to={to} />);
	const agentLinks = (agents: LinkedSession[]) =>
		agents.map((a) => (
			<SessionLink key={a.sessionId} to={to} session={a.sessionId} class="subagent-link">
				⇢ sub-agent {a.name}
			</SessionLink>
		));

	return (
		<article class="reader" ref={article}>
			<header class="reader-head">
				<button type="button" class="link back" onClick={onClose} title="back to the list (Esc)">
					← back
				</button>
				<button type="button" class="link find-open" onClick={() => setFinding(true)} title="find in this session (Ctrl+F)">
					find
				</button>
				<h2>{titleOf(s)}</h2>
				<div class="facts">
					{[
						s.project,
						s.agent,
						shortTime(s.started),
						plural(s.messageCount, "message"),
						`${view.total} entries on this branch, tool calls and results counted`,
					]
						.filter(Boolean)
						.join(" · ")}
					{view.messages.some((m) => m.branchState === "compacted") ? <span class="badge compacted">compacted stretch</span> : null}
					{s.source === "gone" ? <span class="badge gone">gone</span> : null}
				</div>
				{s.source === "gone" ? (
					// The viewer only reads (served over GET from 127.0.0.1): writing the file back is a command to copy.
					<p class="gone-note">
						Its file was removed {shortTime(s.goneAt)}; this is lookback's archived copy. Write it back where {s.agent} resumes it with{" "}
						<CopyButton text={`lookback restore ${s.sessionId}`} />
					</p>
				) : null}
				<div class="facts links">
					{s.cwd ? <span class="cwd">{s.cwd}</span> : null}
					{s.parentSessionId ? (
						<span class="parent">
							forked from{" "}
							<SessionLink to={to} session={s.parentSessionId}>
								{s.parentSessionId.slice(0, 13)}
							</SessionLink>
						</span>
					) : null}
					{s.spawnedBySessionId ? (
						<span class="spawned-by">
							sub-agent of{" "}
							<SessionLink to={to} session={s.spawnedBySessionId} entry={spawnedBy}>
								{s.spawnedBySessionId.slice(0, 13)}
							</SessionLink>
						</span>
					) : null}
					{structure?.forks.length ? (
						<span class="forked">
							forks:{" "}
							{structure.forks.map((f) => (
								<SessionLink key={f.sessionId} to={to} session={f.sessionId}>
									{f.name}
								</SessionLink>
							))}
						</span>
					) : null}
					{spawned.get("")?.length ? <span class="subagents">sub-agents: {agentLinks(spawned.get("")!)}</span> : null}
				</div>
				<BranchSummary view={view} to={to} />
				{view.usage ? <SessionUsage usage={view.usage} /> : null}
				<CopyButton text={s.resumeHint} />
				<ExportButtons exportAs={exportAs} branched={(structure?.leaves ?? 1) > 1} />
				{finding ? (
					<FindBar
						input={findInput}
						query={findQuery}
						at={at}
						count={matches.length}
						onQuery={(q) => {
							setFindQuery(q);
							setFindAt(0);
						}}
						onStep={(by) => setFindAt(at + by)}
						onClose={() => setFinding(false)}
					/>
				) : null}
			</header>
			<VirtualList
				class="messages"
				items={view.messages}
				estimate={120}
				keyOf={(m) => m.entryId}
				scrollTo={found ?? (focus >= 0 ? focus : undefined)}
				render={(m, i) => (
					<>
						{i === 0 ? forks(forksAfter.get("")) : null}
						{STRETCH[m.branchState] && view.messages[i - 1]?.branchState !== m.branchState ? (
							<div class={`stretch-start ${m.branchState}`}>{STRETCH[m.branchState]}</div>
						) : null}
						<Message message={m} focus={m.entryId === entry} found={m.entryId === foundEntry}>
							{spawned.has(m.entryId) ? <div class="subagents">{agentLinks(spawned.get(m.entryId)!)}</div> : null}
						</Message>
						{forks(forksAfter.get(m.entryId))}
					</>
				)}
			/>
		</article>
	);
}
