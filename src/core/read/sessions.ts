/** Sessions as a whole: find one by id, id prefix or path; read its branch or a window of it; list recent ones. */

import { DEFAULTS } from "../defaults.js";
import { LookbackError } from "../errors.js";
import { activeLeaf, type BranchState, branchThrough, pathToRoot, type TreeNode } from "../parse/branch.js";
import { type Role, wholeTextOfLine } from "../parse/entry-text.js";
import { filterSql, type SessionFilter } from "../query/session-filter.js";
import type { ReadRange } from "../search/search.js";
import { decodeBody } from "../store/body-codec.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { ENTRY_BODY, ENTRY_HAS_BODY, entryNode, STATE_NAME } from "../store/schema.js";
import { flatten } from "../text/display.js";
import { isoOf, timeBound } from "../text/time.js";
import { type SessionUsage, sessionCosts, sessionUsage } from "../usage/session-usage.js";
import { SESSION_COLUMNS, type SessionRow, type SessionSummary, sessionSummary } from "./session-rows.js";
import { type SessionStructure, sessionStructure } from "./session-structure.js";

/**
 * The session a reference names: a full session id, a unique id prefix (4+ characters), or the path of an
 * indexed file. @throws LookbackError session-not-found / session-ambiguous.
 */
export function resolveSession(db: Database, ref: string): SessionRow {
	const value = ref.trim();
	const byPath = queryAll<SessionRow>(db, `SELECT ${SESSION_COLUMNS} FROM sessions WHERE path = ? AND session_id IS NOT NULL`, [value]);
	if (byPath.length === 1) return byPath[0];
	const exact = queryAll<SessionRow>(db, `SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id = ? ORDER BY modified DESC`, [value]);
	if (exact.length > 0) return exact[0];
	if (value.length >= 4 && /^[0-9a-zA-Z-]+$/.test(value)) {
		const prefixed = queryAll<SessionRow>(
			db,
			`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id >= ? AND session_id < ? ORDER BY modified DESC LIMIT 6`,
			[value, `${value}\uffff`],
		);
		if (prefixed.length === 1) return prefixed[0];
		if (prefixed.length > 1) {
			const ids = prefixed
				.map((r) => r.session_id)
				.slice(0, 5)
				.join(", ");
			throw new LookbackError("session-ambiguous", `"${ref}" matches several sessions (${ids}…); give more of the id`);
		}
	}
	throw new LookbackError("session-not-found", `no indexed session has the id, id prefix or path "${ref}"`);
}

/** One message of a session as read back from the index. */
export interface SessionMessage {
	entryId: string;
	parentId: string | null;
	role: Role;
	type: string;
	time?: string;
	branchState: BranchState;
	tool?: string;
	text: string;
}

export interface SessionView {
	session: SessionSummary;
	/** Last entry of the branch shown; pass it back to keep reading the same branch. */
	branchTip: string;
	/** Messages on that branch (before windowing). */
	total: number;
	/** Index in the branch of the first message returned. */
	offset: number;
	messages: SessionMessage[];
	/** With `structure: true`: the other branches, sub-agents and forks around the branch shown. */
	structure?: SessionStructure;
	/** With `usage: true`: what the session used (tokens, cost, models, tool calls, files edited). */
	usage?: SessionUsage;
	/** With `bookends: n`: the first and last n messages of the branch, whether or not the window shows them. */
	bookends?: { first: SessionMessage[]; last: SessionMessage[] };
}

export interface ReadOptions {
	/** Centre the window on this entry; the branch shown is the one through it. */
	around?: string;
	/** Messages on each side of `around` (default 5). */
	window?: number;
	/** Read the branch ending at this entry (a previous reply's branchTip). */
	branchTip?: string;
	/** Also say what surrounds the branch shown (the viewer draws it). */
	structure?: boolean;
	/**
	 * Read the messages the index keeps only as head and tail whole, from their line in the session file (or,
	 * for a session whose file is gone, the archive's copy); a line that cannot be read leaves the stored text.
	 */
	wholeText?: ReadRange;
	/** Also say what the session used. */
	usage?: boolean;
	/** Also return this many messages from each end of the branch (`SessionView.bookends`): a hit's context. */
	bookends?: number;
}

interface EntryRow {
	entry_id: string;
	parent_id: string | null;
	seq: number;
	kept: string | null;
	role: Role | null;
	type: string;
	ts: number | null;
	state: number;
	tool: string | null;
	/** 1 when the entry has text, its own or its holder's (ENTRY_HAS_BODY): the text itself is read only where shown. */
	has_body: number;
	off: number | null;
	len: number | null;
	deep: number;
}

/**
 * The stored texts of some entries of a session, by seq. Read apart from the entries' list, and only for the
 * messages a reply shows: a long session's texts are megabytes, deflated, and a hit's context shows a dozen.
 */
function bodiesOf(db: Database, sessionRowId: number, seqs: readonly number[]): Map<number, unknown> {
	if (seqs.length === 0) return new Map();
	const rows = queryAll<{ seq: number; body: unknown }>(
		db,
		`SELECT e.seq, ${ENTRY_BODY} AS body FROM entries e WHERE e.session = ? AND e.seq IN (SELECT value FROM json_each(?))`,
		[sessionRowId, JSON.stringify(seqs)],
	);
	return new Map(rows.map((r) => [r.seq, r.body]));
}

/** The active branch of a session, or the branch through / window around an entry. */
export function readSession(db: Database, row: SessionRow, options: ReadOptions = {}): SessionView {
	const rows = queryAll<EntryRow>(
		db,
		`SELECT e.entry_id, e.parent_id, e.seq, e.kept, e.role, e.type, e.ts, e.state, e.tool, ${ENTRY_HAS_BODY} AS has_body, e.off, e.len, e.deep
		 FROM entries e WHERE e.session = ? ORDER BY e.seq`,
		[row.id],
	);
	const nodes: TreeNode[] = rows.map(entryNode);
	const bySeq = new Map(rows.map((r) => [r.seq, r]));
	let branch: TreeNode[];
	if (options.branchTip !== undefined) {
		const tip = nodes.filter((n) => n.id === options.branchTip).pop();
		if (!tip) throw new LookbackError("entry-not-found", `no entry "${options.branchTip}" in session ${row.session_id}`);
		branch = pathToRoot(tip, new Map(nodes.map((n) => [n.id, n])));
	} else if (options.around !== undefined) {
		const through = branchThrough(nodes, options.around);
		if (!through) throw new LookbackError("entry-not-found", `no entry "${options.around}" in session ${row.session_id}`);
		branch = through;
	} else {
		const leaf = activeLeaf(nodes);
		branch = leaf ? pathToRoot(leaf, new Map(nodes.map((n) => [n.id, n]))) : [];
	}
	const all = branch.map((n) => bySeq.get(n.seq)!).filter((r) => r.role !== null && r.has_body === 1);
	let offset = 0;
	let shownRows = all;
	if (options.around !== undefined) {
		const at = branch.findIndex((n) => n.id === options.around);
		if (at < 0) throw new LookbackError("entry-not-found", `entry "${options.around}" is not on the branch ending at ${options.branchTip}`);
		// Centre on the entry, or on the last message before it when it is not a message (a model change, say).
		const seqOnBranch = new Set(branch.slice(0, at + 1).map((n) => n.seq));
		const centre = Math.max(0, all.filter((r) => seqOnBranch.has(r.seq)).length - 1);
		const window = Math.max(1, options.window ?? DEFAULTS.readWindow);
		offset = Math.max(0, centre - window);
		shownRows = all.slice(offset, centre + window + 1);
	}
	const ends = options.bookends ? { first: all.slice(0, options.bookends), last: all.slice(-options.bookends) } : undefined;
	const bodies = bodiesOf(db, row.id, [...new Set([...shownRows, ...(ends?.first ?? []), ...(ends?.last ?? [])].map((r) => r.seq))]);
	const message = (r: EntryRow): SessionMessage => ({
		entryId: r.entry_id,
		parentId: r.parent_id,
		role: r.role as Role,
		type: r.type,
		time: isoOf(r.ts),
		branchState: STATE_NAME[r.state] ?? "active",
		tool: r.tool ?? undefined,
		text: (options.wholeText && r.deep === 1 && wholeOf(options.wholeText, row, r)) || decodeBody(bodies.get(r.seq) ?? null),
	});
	return {
		session: sessionSummary(row),
		branchTip: branch[branch.length - 1]?.id ?? "",
		total: all.length,
		offset,
		messages: shownRows.map(message),
		...(ends ? { bookends: { first: ends.first.map(message), last: ends.last.map(message) } } : {}),
		...(options.structure
			? {
					structure: sessionStructure(
						db,
						row,
						branch,
						rows.map((r) => ({
							id: r.entry_id,
							parentId: r.parent_id,
							seq: r.seq,
							state: STATE_NAME[r.state] ?? "active",
							message: r.role === null || r.has_body !== 1 ? undefined : () => decodeBody(bodiesOf(db, row.id, [r.seq]).get(r.seq) ?? null),
						})),
					),
				}
			: {}),
		...(options.usage ? { usage: sessionUsage(db, row.id) } : {}),
	};
}

/** The whole text of a cut entry from its line, or undefined when the line cannot be read. */
function wholeOf(readRange: ReadRange, row: SessionRow, entry: EntryRow): string | undefined {
	if (entry.off === null || entry.len === null) return undefined;
	try {
		const line = readRange(row.path, entry.off, entry.off + entry.len);
		return line ? wholeTextOfLine(line, row.agent) : undefined;
	} catch {
		return undefined;
	}
}

export interface BrowseOptions extends SessionFilter {
	/** Sessions to list (default `DEFAULTS.browseLimit`, at most `DEFAULTS.browseMaxLimit`). */
	limit?: number;
}

/** Recent sessions, newest first; without a scope, sub-agent transcripts are left out (`DEFAULTS.browseScope`). */
export function browseSessions(db: Database, options: BrowseOptions = {}): SessionSummary[] {
	const { where, params } = filterSql(options, { time: "session", sessions: "", defaultScope: DEFAULTS.browseScope });
	const limit = Math.max(1, Math.min(options.limit ?? DEFAULTS.browseLimit, DEFAULTS.browseMaxLimit));
	const rows = queryAll<SessionRow>(
		db,
		`SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${where.join(" AND ")} ORDER BY modified DESC, id DESC LIMIT ?`,
		[...params, limit],
	);
	const costs = sessionCosts(
		db,
		rows.map((r) => r.id),
	);
	return rows.map((r) => {
		const usage = costs.get(r.id);
		return usage ? { ...sessionSummary(r), usage } : sessionSummary(r);
	});
}

export interface MatchOptions extends SessionFilter {
	/** Only sessions whose last activity was before this time: a date, an ISO datetime or an age. */
	before?: string;
	/** One session (id, id prefix or path) and the sub-agents it spawned, the filters aside. */
	session?: string;
}

/**
 * Every session a filter selects, sub-agent transcripts included, with the sub-agents those sessions spawned,
 * newest first: what `lookback forget` removes. No limit: the person sees the count before anything goes.
 */
export function matchingSessions(db: Database, options: MatchOptions): SessionSummary[] {
	if (options.session !== undefined) return withSubagents(db, [resolveSession(db, options.session)]).map(sessionSummary);
	const { where, params } = filterSql({ scope: "all", ...options }, { time: "session", sessions: "", defaultScope: "all" });
	const before = timeBound(options.before, "start", options.now);
	if (before !== undefined) {
		where.push("coalesce(modified, started, 0) < ?");
		params.push(before);
	}
	const rows = queryAll<SessionRow>(
		db,
		`SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${where.join(" AND ")} ORDER BY modified DESC, id DESC`,
		params,
	);
	return withSubagents(db, rows).map(sessionSummary);
}

/** The sessions and the sub-agent transcripts they spawned (each once). */
function withSubagents(db: Database, rows: SessionRow[]): SessionRow[] {
	const seen = new Set(rows.map((r) => r.id));
	const out = [...rows];
	for (const row of rows) {
		for (const sub of queryAll<SessionRow>(db, `SELECT ${SESSION_COLUMNS} FROM sessions WHERE spawned_by = ?`, [row.path])) {
			if (!seen.has(sub.id)) {
				seen.add(sub.id);
				out.push(sub);
			}
		}
	}
	return out;
}

/** The newest compaction or branch summary of a session, cut to `maxChars`, or undefined. */
export function latestSummary(db: Database, sessionRowId: number, maxChars: number = DEFAULTS.summaryChars): string | undefined {
	const row = queryAll<{ body: unknown }>(
		db,
		`SELECT ${ENTRY_BODY} AS body FROM entries e WHERE e.session = ? AND e.role = 'summary' ORDER BY e.seq DESC LIMIT 1`,
		[sessionRowId],
	)[0];
	if (!row) return undefined;
	const text = flatten(decodeBody(row.body)).trim();
	return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}

/** A sub-agent transcript is `<session>/<agent name>.jsonl`. */
export function subagentName(path: string): string {
	return (path.split(/[\\/]/).pop() ?? "").replace(/\.jsonl?$/, "");
}

/** For an omp sub-agent transcript: the entry of the spawning session that names it. */
export function spawningEntryOf(db: Database, row: SessionRow): string | undefined {
	return row.kind === "subagent" && row.spawned_by ? spawningEntry(db, row.spawned_by, subagentName(row.path)) : undefined;
}

/**
 * For an entry of a sub-agent's conversation kept in its session's own file (Claude Code 1.0's inline sidechains,
 * `SessionFormat.sideConversations`): the entry that spawned it, on which the side entry it hangs under hangs
 * (src/agents/claude/format.ts), or undefined when the entry is in none or the files do not say.
 */
export function sidechainSpawner(db: Database, sessionRowId: number, entryId: string): string | undefined {
	const nodes = queryAll<{ entry_id: string; parent_id: string | null; seq: number; type: string }>(
		db,
		"SELECT entry_id, parent_id, seq, type FROM entries WHERE session = ? ORDER BY seq",
		[sessionRowId],
	).map(entryNode);
	const index = new Map(nodes.map((n) => [n.id, n]));
	const entry = index.get(entryId);
	// The side entry nearest above it: the last on its path from the root.
	return (entry && pathToRoot(entry, index).findLast((n) => n.side)?.parentId) ?? undefined;
}

/**
 * The entry of a session that spawned a sub-agent (omp): the first tool call or result that names the agent,
 * found through the word index. Undefined when the session's files do not say.
 */
export function spawningEntry(db: Database, sessionPath: string, agentName: string): string | undefined {
	// Claude Code's `agent-<id>`: the spawning call's result names the id alone ("agentId: <id>").
	// Codex's `rollout-<time>-<thread id>`: the spawn_agent call's result names the thread id ({"agent_id": …}).
	// Gemini CLI's `<agentId>.jsonl`: the invoke_agent result names it ("agentId: <id>", added by the Gemini format).
	const id =
		/^agent-([0-9a-f]{8,})$/.exec(agentName)?.[1] ??
		/^rollout-.*-([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})(?:\.jsonl)?(?:\.zst)?$/.exec(agentName)?.[1];
	const words = (id ?? agentName).match(/[\p{L}\p{N}]+/gu);
	if (!words) return undefined;
	const match = `{tool} : "${words.join(" ").toLowerCase()}"`;
	return queryAll<{ entry_id: string }>(
		db,
		`SELECT e.entry_id FROM entries_fts f CROSS JOIN entries e ON e.id = f.rowid
		 WHERE entries_fts MATCH ? AND e.session = (SELECT id FROM sessions WHERE path = ?) ORDER BY e.seq LIMIT 1`,
		[match, sessionPath],
	)[0]?.entry_id;
}
