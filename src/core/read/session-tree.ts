/**
 * A session whole, for an export: every entry in file order (so that every branch can be walked), each message
 * with its whole text. The index keeps a long entry as its head and tail; its whole text is read again from its
 * line in the session file, by the read path snippets of a cut middle use (`ReadRange`, `wholeTextOfLine`).
 */

import { activeLeaf, pathToRoot, type TreeNode } from "../parse/branch.js";
import type { Role } from "../parse/entry-text.js";
import { wholeTextOfLine } from "../parse/entry-text.js";
import type { ReadRange } from "../search/search.js";
import { decodeBody } from "../store/body-codec.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { ENTRY_BODY, entryNode, STATE_NAME } from "../store/schema.js";
import { isoOf } from "../text/time.js";
import { type SessionRow, type SessionSummary, sessionSummary } from "./session-rows.js";
import { type SessionStructure, sessionStructure } from "./session-structure.js";
import type { SessionMessage } from "./sessions.js";

/** A message read whole. */
export interface WholeMessage extends SessionMessage {
	/** Position of the entry in its file (the order of the tree's nodes). */
	seq: number;
	/**
	 * The index holds only its head and tail and its file could not give the rest (the file is gone or compressed,
	 * or its line held several records): `text` is what the index holds, the cut marked in it.
	 */
	textCut?: true;
}

export interface SessionTree {
	session: SessionSummary;
	/** Every entry of the session, messages or not, in file order: the tree every branch is walked in. */
	nodes: TreeNode[];
	/** The messages, in file order. */
	messages: WholeMessage[];
	/** The last entry of the active branch (Pi resumes from the last entry in file order). */
	activeTip: string;
	/** Sub-agents, forks and the other branches around the active branch. */
	structure: SessionStructure;
}

export interface TreeOptions {
	/** Reads part of a session file: without it, long entries keep the index's head and tail (`textCut`). */
	readRange?: ReadRange;
}

interface TreeRow {
	entry_id: string;
	parent_id: string | null;
	seq: number;
	role: Role | null;
	type: string;
	ts: number | null;
	state: number;
	tool: string | null;
	body: unknown;
	off: number | null;
	len: number | null;
	deep: number;
}

/** The whole text of a cut entry from its line, or undefined when the line cannot give it. */
function wholeText(row: SessionRow, r: TreeRow, stored: string, readRange: ReadRange | undefined): string | undefined {
	if (!readRange || r.off === null || r.len === null) return undefined;
	let line: Uint8Array | undefined;
	try {
		line = readRange(row.path, r.off, r.off + r.len);
	} catch {
		return undefined;
	}
	const whole = line ? wholeTextOfLine(line, row.agent) : undefined;
	// The line must hold this entry: a file rewritten since, or an output an agent kept in a file of its own
	// (the line has only a stub), reads otherwise. Both start as the stored head does.
	return whole?.startsWith(stored.slice(0, 64)) ? whole : undefined;
}

export function readTree(db: Database, row: SessionRow, options: TreeOptions = {}): SessionTree {
	const rows = queryAll<TreeRow>(
		db,
		`SELECT e.entry_id, e.parent_id, e.seq, e.role, e.type, e.ts, e.state, e.tool, ${ENTRY_BODY} AS body, e.off, e.len, e.deep
		 FROM entries e WHERE e.session = ? ORDER BY e.seq`,
		[row.id],
	);
	const nodes: TreeNode[] = rows.map(entryNode);
	const messages: WholeMessage[] = [];
	const textOf = new Map<number, string>();
	for (const r of rows) {
		if (r.role === null || r.body === null) continue;
		const stored = decodeBody(r.body);
		const whole = r.deep ? wholeText(row, r, stored, options.readRange) : stored;
		textOf.set(r.seq, whole ?? stored);
		messages.push({
			entryId: r.entry_id,
			parentId: r.parent_id,
			seq: r.seq,
			role: r.role,
			type: r.type,
			time: isoOf(r.ts),
			branchState: STATE_NAME[r.state] ?? "active",
			tool: r.tool ?? undefined,
			text: whole ?? stored,
			...(whole === undefined ? { textCut: true as const } : {}),
		});
	}
	const leaf = activeLeaf(nodes);
	const active = leaf ? pathToRoot(leaf, new Map(nodes.map((n) => [n.id, n]))) : [];
	const structure = sessionStructure(
		db,
		row,
		active,
		rows.map((r) => ({
			id: r.entry_id,
			parentId: r.parent_id,
			seq: r.seq,
			state: STATE_NAME[r.state] ?? "active",
			message: textOf.has(r.seq) ? () => textOf.get(r.seq)! : undefined,
		})),
	);
	return { session: sessionSummary(row), nodes, messages, activeTip: leaf?.id ?? "", structure };
}
