/**
 * What surrounds the branch of a session being read: the branches that leave it (where, how long, in which
 * state), the sub-agent transcripts the session spawned and the sessions forked from it. The viewer draws it.
 */

import { agentFacts } from "../../agents/registry.js";
import { DEFAULTS } from "../defaults.js";
import type { BranchState, TreeNode } from "../parse/branch.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import type { SessionRow } from "./session-rows.js";
import { spawningEntry, spawningEntryOf, subagentName } from "./sessions.js";

/** An entry of the tree with what the structure needs: its state, and its text when it is a message. */
export interface StructureNode extends TreeNode {
	state: BranchState;
	message?: () => string;
}

/** A branch that leaves the branch shown. */
export interface SideBranch {
	/** The last message of the branch shown before this one leaves it (absent: it leaves before the first). */
	after?: string;
	/** Its first message: read the session around it to show this branch. */
	entryId: string;
	/** Its last entry. */
	tip: string;
	/** State of its first message: abandoned, or active/compacted when the branch shown is itself abandoned. */
	state: BranchState;
	/** Messages from where it leaves to its tip. */
	messages: number;
	/** The start of its first message. */
	preview: string;
}

/** Another session linked to this one; `entryId` is the entry of this session that spawned it (sub-agents). */
export interface LinkedSession {
	sessionId: string;
	name: string;
	entryId?: string;
}

export interface SessionStructure {
	branches: SideBranch[];
	/** Branch tips in the whole session (1: a linear session). */
	leaves: number;
	/** Sub-agent transcripts this session spawned. */
	subagents: LinkedSession[];
	/** Sessions forked from this one. */
	forks: LinkedSession[];
	/** For a sub-agent transcript: the entry of the spawning session that names it. */
	spawnedByEntryId?: string;
}

export function sessionStructure(
	db: Database,
	row: SessionRow,
	shown: readonly TreeNode[],
	nodes: readonly StructureNode[],
): SessionStructure {
	const children = new Map<string, StructureNode[]>();
	for (const n of nodes) {
		if (n.parentId === null) continue;
		const siblings = children.get(n.parentId);
		if (siblings) siblings.push(n);
		else children.set(n.parentId, [n]);
	}
	const newest = (id: string) => children.get(id)?.reduce((a, b) => (b.seq > a.seq ? b : a));
	const bySeq = new Map(nodes.map((n) => [n.seq, n]));
	const onShown = new Set(shown.map((n) => n.seq));

	const branches: SideBranch[] = [];
	let after: string | undefined;
	for (const node of shown) {
		if (bySeq.get(node.seq)?.message) after = node.id;
		for (const child of children.get(node.id) ?? []) {
			if (onShown.has(child.seq) || branches.length >= DEFAULTS.structureMaxBranches) continue;
			const path: StructureNode[] = [];
			const seen = new Set<string>();
			for (let next: StructureNode | undefined = child; next && !seen.has(next.id); next = newest(next.id)) {
				seen.add(next.id);
				path.push(next);
			}
			const messages = path.filter((n) => n.message);
			if (messages.length === 0) continue;
			const text = messages[0].message!().replace(/\s+/g, " ").trim();
			branches.push({
				...(after ? { after } : {}),
				entryId: messages[0].id,
				tip: path[path.length - 1].id,
				state: messages[0].state,
				messages: messages.length,
				preview: text.length > DEFAULTS.structurePreviewChars ? `${text.slice(0, DEFAULTS.structurePreviewChars)}…` : text,
			});
		}
	}

	// Both by a range of the path index: a read over HTTP ranges must not scan every session. Pi writes a fork beside its parent.
	const sep = row.path.match(/[\\/]/g)?.pop() ?? "/";
	const subagents = under(db, subagentFolder(row, sep), "spawned_by = ?", row.path).map((s) => {
		const name = subagentName(s.path);
		const entryId = spawningEntry(db, row.path, name);
		return { sessionId: s.session_id, name, ...(entryId ? { entryId } : {}) };
	});
	const forks = row.session_id
		? under(db, row.path.slice(0, row.path.lastIndexOf(sep) + 1), "parent_id = ? AND session_id != parent_id", row.session_id).map((s) => ({
				sessionId: s.session_id,
				name: s.name ?? s.first_prompt?.slice(0, 80) ?? s.session_id,
			}))
		: [];
	const spawnedByEntryId = spawningEntryOf(db, row);
	return {
		branches,
		leaves: nodes.filter((n) => !children.has(n.id)).length,
		subagents,
		forks,
		...(spawnedByEntryId ? { spawnedByEntryId } : {}),
	};
}

/**
 * Where a session's sub-agent transcripts lie, as a path prefix: where its agent says (`AgentFacts.subagentFolder`:
 * Claude Code's anywhere in its project's folder, Gemini CLI's in `chats/<session id>/`, Codex's anywhere in its
 * home), else in a folder named like the session (`<stem>/` beside `<stem>.jsonl`: omp's, OpenCode's).
 */
function subagentFolder(row: SessionRow, sep: string): string {
	const place = { path: row.path, sessionId: row.session_id, sep };
	return agentFacts(row.agent).subagentFolder?.(place) ?? `${row.path.replace(/\.jsonl$/, "")}${sep}`;
}

/** Indexed sessions whose path starts with `prefix` and that meet `condition`, oldest first. */
function under(db: Database, prefix: string, condition: string, value: string) {
	return queryAll<{ session_id: string; path: string; name: string | null; first_prompt: string | null }>(
		db,
		`SELECT session_id, path, name, first_prompt FROM sessions
		 WHERE path >= ? AND path < ? AND ${condition} AND session_id IS NOT NULL ORDER BY started, path`,
		[prefix, `${prefix}\uffff`, value],
	);
}
