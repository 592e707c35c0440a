/**
 * An export's content, whatever its format: the session's facts, then its conversation as branches of messages
 * (the active branch first; with `branch: "all"` every other branch after it, in the order they were written,
 * each saying where it leaves), tool calls apart from prose, the sub-agents a message spawned, and every text
 * redacted unless asked not to. This object is the JSON export (docs/export.md); markdown.ts and html.ts draw it.
 */

import { agentFacts } from "../../agents/registry.js";
import { DEFAULTS } from "../defaults.js";
import type { BranchState, TreeNode } from "../parse/branch.js";
import { pathToRoot } from "../parse/branch.js";
import type { Role } from "../parse/entry-text.js";
import type { AgentKind, SessionKind } from "../parse/source.js";
import type { SessionTree, WholeMessage } from "../read/session-tree.js";
import { loadRedaction, type RedactionTally, redactText } from "../redact/redact.js";
import { flatten } from "../text/display.js";
import { assistantParts, type ToolCall } from "./message-parts.js";

export type ExportBranchChoice = "active" | "all";

export interface ExportMessage {
	entryId: string;
	parentId: string | null;
	role: Role;
	/** The entry's type: user, assistant, toolResult, bashExecution, compaction, branch_summary, label, … */
	type: string;
	time?: string;
	branchState: BranchState;
	/** A tool result's tool (a bash execution's command). */
	tool?: string;
	/** The message's text; an assistant's prose without its tool calls. */
	text: string;
	/** An assistant's tool calls, in order. */
	calls?: ToolCall[];
	/** Only the index's head and tail of this message could be read (its file is gone or compressed): the cut is marked in `text`. */
	textCut?: true;
	/** The sub-agents this message spawned. */
	subagents?: { name: string; sessionId: string }[];
}

export interface ExportBranch {
	/** 1 is the active branch (the one the agent resumes); the others are numbered in the order they were written. */
	number: number;
	/** "active" for branch 1 (parts of it may be compacted: see each message), else the state of its first message. */
	state: BranchState;
	/** Where it leaves: after this message of branch `leavesFrom` (absent: before the first message). */
	leavesAfter?: string;
	leavesFrom?: number;
	/** Its last entry (read_session's branchTip). */
	tip: string;
	/** Its messages from where it leaves (branch 1: all of them). */
	messages: ExportMessage[];
}

export interface ExportDocument {
	/** The version of this shape. */
	lookbackExport: 1;
	exportedAt: string;
	branch: ExportBranchChoice;
	/** Whether secrets were replaced by `[REDACTED:kind]` markers, and how many of each kind. */
	redacted: boolean;
	redactions: RedactionTally;
	session: {
		sessionId: string;
		title: string;
		agent: AgentKind;
		agentName: string;
		project: string;
		cwd?: string;
		started?: string;
		modified?: string;
		messageCount: number;
		kind: SessionKind;
		resumeHint: string;
		parentSessionId?: string;
		spawnedBySessionId?: string;
		/** "gone": its agent removed the file; the export was read from lookback's archive. */
		source?: "gone";
		/** When a sync found the file gone. */
		goneAt?: string;
	};
	subagents: { name: string; sessionId: string; entryId?: string }[];
	forks: { name: string; sessionId: string }[];
	branches: ExportBranch[];
}

export interface DocumentOptions {
	branch?: ExportBranchChoice;
	/** Replace secrets (default true). */
	redact?: boolean;
	/** The time written as exportedAt (default now). */
	now?: Date;
}

/** Work done between two yields to the host's event loop: a long export never holds it longer than this. */
const SLICE_MS = 40;
const breather = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The branches to export: the active one, then each other leaf's path from where it leaves what came before. */
function branchPaths(tree: SessionTree, choice: ExportBranchChoice): { path: TreeNode[]; from: number }[] {
	const byId = new Map(tree.nodes.map((n) => [n.id, n]));
	const tip = byId.get(tree.activeTip);
	const active = tip ? pathToRoot(tip, byId) : [];
	const out = [{ path: active, from: 0 }];
	if (choice === "active") return out;
	const parents = new Set(tree.nodes.map((n) => n.parentId));
	const shown = new Set(active.map((n) => n.seq));
	for (const leaf of tree.nodes) {
		if (parents.has(leaf.id) || shown.has(leaf.seq)) continue;
		const path = pathToRoot(leaf, byId);
		let from = path.length;
		while (from > 0 && !shown.has(path[from - 1].seq)) from--;
		for (const n of path.slice(from)) shown.add(n.seq);
		out.push({ path, from });
	}
	return out;
}

export async function exportDocument(tree: SessionTree, options: DocumentOptions = {}): Promise<ExportDocument> {
	const choice = options.branch ?? "active";
	const redact = options.redact ?? true;
	if (redact) await loadRedaction();
	const redactions: RedactionTally = {};
	const clean = (text: string) => (redact ? redactText(text, redactions) : text);
	const s = tree.session;
	const bySeq = new Map(tree.messages.map((m) => [m.seq, m]));
	const spawned = new Map<string, { name: string; sessionId: string }[]>();
	for (const a of tree.structure.subagents)
		if (a.entryId) spawned.set(a.entryId, [...(spawned.get(a.entryId) ?? []), { name: a.name, sessionId: a.sessionId }]);

	let sliceStart = Date.now();
	const message = async (m: WholeMessage): Promise<ExportMessage> => {
		if (Date.now() - sliceStart > SLICE_MS) {
			await breather();
			sliceStart = Date.now();
		}
		// Redacted whole, then split: one pass over the text rather than one per part.
		const text = clean(m.text);
		const parts = m.role === "assistant" ? assistantParts(text) : { prose: text, calls: [] };
		return {
			entryId: m.entryId,
			parentId: m.parentId,
			role: m.role,
			type: m.type,
			time: m.time,
			branchState: m.branchState,
			...(m.tool !== undefined ? { tool: clean(m.tool) } : {}),
			text: parts.prose,
			...(parts.calls.length > 0 ? { calls: parts.calls } : {}),
			...(m.textCut ? { textCut: true as const } : {}),
			...(spawned.has(m.entryId) ? { subagents: spawned.get(m.entryId) } : {}),
		};
	};

	const branches: ExportBranch[] = [];
	const branchOf = new Map<number, number>();
	for (const { path, from } of branchPaths(tree, choice)) {
		const number = branches.length + 1;
		const messages: ExportMessage[] = [];
		for (const node of path.slice(from)) {
			const m = bySeq.get(node.seq);
			if (!m) continue;
			branchOf.set(m.seq, number);
			messages.push(await message(m));
		}
		if (messages.length === 0 && number > 1) continue;
		const before = path
			.slice(0, from)
			.reverse()
			.find((n) => bySeq.has(n.seq));
		branches.push({
			number,
			state: number === 1 ? "active" : messages[0].branchState,
			...(before ? { leavesAfter: before.id, leavesFrom: branchOf.get(before.seq) } : {}),
			tip: path[path.length - 1]?.id ?? "",
			messages,
		});
	}

	// Redacted before it is cut and put on one line: a rule may need the line a secret sits on, or all of it.
	const firstPrompt = tree.messages.find((m) => m.role === "user" && m.text.trim())?.text ?? s.firstPrompt;
	const title = s.name ? clean(s.name) : flatten(firstPrompt ? clean(firstPrompt) : s.sessionId, DEFAULTS.titleChars);
	return {
		lookbackExport: 1,
		exportedAt: (options.now ?? new Date()).toISOString(),
		branch: choice,
		redacted: redact,
		redactions,
		session: {
			sessionId: s.sessionId,
			title,
			agent: s.agent,
			agentName: agentFacts(s.agent).label,
			project: s.project,
			...(s.cwd ? { cwd: clean(s.cwd) } : {}),
			...(s.started ? { started: s.started } : {}),
			...(s.modified ? { modified: s.modified } : {}),
			messageCount: s.messageCount,
			kind: s.kind,
			resumeHint: clean(s.resumeHint),
			...(s.parentSessionId ? { parentSessionId: s.parentSessionId } : {}),
			...(s.spawnedBySessionId ? { spawnedBySessionId: s.spawnedBySessionId } : {}),
			...(s.source ? { source: s.source, ...(s.goneAt ? { goneAt: s.goneAt } : {}) } : {}),
		},
		subagents: tree.structure.subagents.map((a) => ({
			name: a.name,
			sessionId: a.sessionId,
			...(a.entryId ? { entryId: a.entryId } : {}),
		})),
		forks: tree.structure.forks.map((f) => ({ name: clean(f.name), sessionId: f.sessionId })),
		branches,
	};
}
