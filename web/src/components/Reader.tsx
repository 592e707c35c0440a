/** A session as a conversation, on the branch through the hit, the hit scrolled into view. */

import type { SessionView } from "../../../src/core/index.js";
import { CopyButton } from "./CopyButton.js";
import { plural, titleOf, when } from "./format.js";
import { Message } from "./Message.js";
import { VirtualList } from "./VirtualList.js";

interface Props {
	view: SessionView;
	entry: string;
	linkTo(session: string, entry?: string): string;
	onOpen(session: string, entry?: string): void;
	onClose(): void;
}

export function Reader({ view, entry, linkTo, onOpen, onClose }: Props) {
	const s = view.session;
	const focus = entry ? view.messages.findIndex((m) => m.entryId === entry) : -1;
	const states = new Set(view.messages.map((m) => m.branchState));
	const link = (session: string, label: string, at?: string) => (
		<a
			href={linkTo(session, at)}
			onClick={(e) => {
				e.preventDefault();
				onOpen(session, at);
			}}
		>
			{label}
		</a>
	);
	return (
		<article class="reader">
			<header class="reader-head">
				<button type="button" class="link back" onClick={onClose} title="back to the list (Esc)">
					← back
				</button>
				<h2>{titleOf(s)}</h2>
				<div class="facts">
					{[s.project, s.agent, when(s.started), plural(s.messageCount, "message"), `this branch: ${plural(view.total, "message")}`].filter(Boolean).join(" · ")}
					{states.has("abandoned") ? <span class="badge abandoned">abandoned branch</span> : null}
					{states.has("compacted") ? <span class="badge compacted">compacted stretch</span> : null}
				</div>
				<div class="facts">
					{s.cwd ? <span class="cwd">{s.cwd}</span> : null}
					{s.parentSessionId ? <> · forked from {link(s.parentSessionId, s.parentSessionId.slice(0, 13))}</> : null}
					{s.spawnedBySessionId ? <> · sub-agent of {link(s.spawnedBySessionId, s.spawnedBySessionId.slice(0, 13), s.spawnedByEntryId)}</> : null}
				</div>
				<CopyButton text={s.resumeHint} />
			</header>
			<VirtualList
				class="messages"
				items={view.messages}
				estimate={120}
				keyOf={(m) => m.entryId}
				scrollTo={focus >= 0 ? focus : undefined}
				render={(m) => <Message message={m} focus={m.entryId === entry} />}
			/>
		</article>
	);
}
