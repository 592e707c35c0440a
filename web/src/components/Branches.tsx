/**
 * The branch structure around the branch being read: which one it is, where the others leave it (inline
 * markers in the conversation) and a list of them; each opens that branch.
 */

import type { SessionView, SideBranch } from "../../../src/core/index.js";
import { plural } from "./format.js";
import { type Opener, SessionLink } from "./SessionLink.js";

const stateName = (state: SideBranch["state"]) => (state === "abandoned" ? "abandoned branch" : "active branch");

/** Where a branch leaves the conversation, drawn under the message it leaves after. */
export function ForkMarker({ branch, session, to }: { branch: SideBranch; session: string; to: Opener }) {
	return (
		<div class={`fork-marker ${branch.state}`} data-branch={branch.entryId}>
			<span class="fork-glyph" aria-hidden="true">
				↳
			</span>{" "}
			{stateName(branch.state)} leaves here, {plural(branch.messages, "message")}:{" "}
			<SessionLink to={to} session={session} entry={branch.entryId} class="open-branch">
				{branch.preview || "read it"}
			</SessionLink>
		</div>
	);
}

/** Which branch is shown, and every branch that leaves it. */
export function BranchSummary({ view, to }: { view: SessionView; to: Opener }) {
	const structure = view.structure;
	if (!structure || structure.leaves <= 1) return null;
	const abandoned = view.messages.some((m) => m.branchState === "abandoned");
	const session = view.session.sessionId;
	return (
		<details class="branches" open={abandoned}>
			<summary>
				<span class={`badge ${abandoned ? "abandoned" : "active"}`}>
					{abandoned ? "reading an abandoned branch" : "reading the active branch"}
				</span>{" "}
				{structure.leaves} branches in this session{structure.branches.length > 0 ? `, ${structure.branches.length} leaving this one` : ""}
				{abandoned ? (
					<>
						{" · "}
						<SessionLink
							to={to}
							session={session}
							entry={structure.branches.find((b) => b.state !== "abandoned")?.entryId}
							class="to-active"
						>
							read the active branch
						</SessionLink>
					</>
				) : null}
			</summary>
			<ul>
				{structure.branches.map((b) => (
					<li key={b.entryId}>
						<span class={`badge ${b.state}`}>{stateName(b.state)}</span> {plural(b.messages, "message")}:{" "}
						<SessionLink to={to} session={session} entry={b.entryId}>
							{b.preview}
						</SessionLink>
					</li>
				))}
			</ul>
		</details>
	);
}
