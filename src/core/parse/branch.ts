/**
 * The session tree: which entries are on the active branch, which were compacted away, which sit on
 * abandoned branches, and the branch through any entry. Every place that walks a branch uses this file.
 */

/** The minimum of an entry needed to walk the tree. */
export interface TreeNode {
	id: string;
	parentId: string | null;
	seq: number;
	/** For a compaction: the first entry kept in the model's context. */
	firstKeptEntryId?: string;
	/**
	 * It opens a conversation beside the session's own (an entry of type `SIDE_ENTRY_TYPE`: Claude Code 1.0's inline
	 * sidechain, a sub-agent's messages written into its parent's file): no entry under it is the session's leaf.
	 */
	side?: boolean;
}

/** The type of an entry that opens a conversation beside the session's own (`TreeNode.side`). */
export const SIDE_ENTRY_TYPE = "sidechain";

/** On the active branch and in the model's context, compacted away (still on the branch), or abandoned. */
export const BRANCH_STATES = ["active", "compacted", "abandoned"] as const;
export type BranchState = (typeof BRANCH_STATES)[number];

/** Map id → node; a repeated id keeps its last occurrence, as Pi does. */
function byId(nodes: readonly TreeNode[]): Map<string, TreeNode> {
	const map = new Map<string, TreeNode>();
	for (const n of nodes) map.set(n.id, n);
	return map;
}

/** Walk parents from `leaf` to a root; stops at a missing parent or a cycle. Returns root → leaf. */
export function pathToRoot(leaf: TreeNode, index: Map<string, TreeNode>): TreeNode[] {
	const path: TreeNode[] = [];
	const seen = new Set<string>();
	let node: TreeNode | undefined = leaf;
	while (node && !seen.has(node.id)) {
		seen.add(node.id);
		path.push(node);
		node = node.parentId === null ? undefined : index.get(node.parentId);
	}
	return path.reverse();
}

/** The last of some nodes in file order. */
function lastOf(nodes: Iterable<TreeNode>): TreeNode | undefined {
	let last: TreeNode | undefined;
	for (const n of nodes) if (!last || n.seq > last.seq) last = n;
	return last;
}

/**
 * The leaf the agent resumes from: the last entry in file order (Pi's rule), passing over any under a side entry —
 * Claude Code resumes its own conversation, not a sub-agent's, even when the file ends inside one. A session of
 * nothing but side conversations ends at its last entry.
 */
export function activeLeaf(nodes: readonly TreeNode[]): TreeNode | undefined {
	const last = lastOf(nodes);
	if (!nodes.some((n) => n.side)) return last;
	const index = byId(nodes);
	const inSide = new Map<string, boolean>();
	// Each entry's answer is kept, so the walk up from every entry visits each entry once (a cycle ends it: not inside).
	const isInSide = (node: TreeNode): boolean => {
		const walked = new Set<string>();
		let found = false;
		for (let at: TreeNode | undefined = node; at && !walked.has(at.id); at = at.parentId === null ? undefined : index.get(at.parentId)) {
			const known = inSide.get(at.id);
			if (known !== undefined) {
				found = known;
				break;
			}
			walked.add(at.id);
			if (at.side) {
				found = true;
				break;
			}
		}
		for (const id of walked) inSide.set(id, found);
		return found;
	};
	return lastOf(nodes.filter((n) => !isInSide(n))) ?? last;
}

/**
 * Branch state of every entry, keyed by seq (ids may repeat in hostile files). The active branch is the
 * parent walk from the leaf (`activeLeaf`); on it, entries before the latest compaction's first kept entry are
 * "compacted"; every entry off it is "abandoned".
 */
export function branchStates(nodes: readonly TreeNode[]): Map<number, BranchState> {
	const states = new Map<number, BranchState>();
	const leaf = activeLeaf(nodes);
	for (const n of nodes) states.set(n.seq, "abandoned");
	if (!leaf) return states;
	const path = pathToRoot(leaf, byId(nodes));
	const keptFrom = contextStart(path);
	path.forEach((n, i) => {
		states.set(n.seq, i < keptFrom ? "compacted" : "active");
	});
	return states;
}

/**
 * Where the model's context starts on a branch (root → leaf): at the latest compaction's first kept entry
 * (or at the compaction itself when that entry is not on the branch), else at the root.
 */
export function contextStart(path: readonly { id: string; firstKeptEntryId?: string }[]): number {
	for (let i = path.length - 1; i >= 0; i--) {
		const kept = path[i].firstKeptEntryId;
		if (kept !== undefined) {
			const at = path.findIndex((n) => n.id === kept);
			return at >= 0 && at <= i ? at : i;
		}
	}
	return 0;
}

/**
 * The branch through `entryId`: its ancestors, then its descendants following the newest child (last in
 * file order) at each step, unless the active leaf descends from it, in which case toward that leaf.
 */
export function branchThrough(nodes: readonly TreeNode[], entryId: string): TreeNode[] | undefined {
	const index = byId(nodes);
	const target = index.get(entryId);
	if (!target) return undefined;
	const leaf = activeLeaf(nodes);
	if (leaf) {
		const active = pathToRoot(leaf, index);
		if (active.some((n) => n.id === entryId)) return active;
	}
	const children = new Map<string, TreeNode>();
	for (const n of nodes) {
		if (n.parentId === null) continue;
		const prev = children.get(n.parentId);
		if (!prev || n.seq > prev.seq) children.set(n.parentId, n);
	}
	const path = pathToRoot(target, index);
	const seen = new Set(path.map((n) => n.id));
	let next = children.get(target.id);
	while (next && !seen.has(next.id)) {
		seen.add(next.id);
		path.push(next);
		next = children.get(next.id);
	}
	return path;
}
