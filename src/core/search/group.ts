/** Matching entries (best first) → one match per session, in rank order: its best entry, its hit count, and the forks folded into it. */

import { formatOf } from "../parse/formats.js";
import type { SessionRow } from "../read/session-rows.js";
import type { Candidate } from "./run.js";
import type { SearchRequest } from "./search.js";

/** One session's part of the results. */
export interface SessionMatch {
	session: number;
	/** Its best matching entry. */
	best: Candidate;
	/** Its matching entries. */
	hits: number;
	/** Forks that matched on the same entry and were folded into it. */
	forks: { sessionId: string; path: string }[];
}

/**
 * Group candidates by session, leaving out excluded entries. A fork whose best entry also matched in its
 * parent (a copied entry) folds into the parent, which keeps its place; not where ids are places in the file
 * (Codex's byte offsets: its forks copy nothing, and an entry at the same offset in both is another message).
 * (Claude Code names no parent when it copies history into a new file, but keeps each message's uuid: such a
 * copy is indexed once, sync/copies.ts, and the files holding it are named beside the hit, shape.ts.)
 */
export function groupBySession(candidates: Candidate[], rows: Map<number, SessionRow>, exclude: SearchRequest["exclude"]): SessionMatch[] {
	const bySessionUuid = new Map<string, number>();
	for (const row of rows.values()) if (row.session_id) bySessionUuid.set(row.session_id, row.id);

	const best = new Map<number, Candidate>();
	const entryIds = new Map<number, Set<string>>();
	const counts = new Map<number, number>();
	for (const c of candidates) {
		const row = rows.get(c.session);
		if (exclude && row && exclude({ sessionPath: row.path, entryId: c.entry_id })) continue;
		if (!best.has(c.session)) best.set(c.session, c);
		counts.set(c.session, (counts.get(c.session) ?? 0) + 1);
		let ids = entryIds.get(c.session);
		if (!ids) entryIds.set(c.session, (ids = new Set()));
		ids.add(c.entry_id);
	}

	const order: number[] = [];
	const forksOf = new Map<number, { sessionId: string; path: string }[]>();
	for (const [session, hit] of best) {
		const row = rows.get(session);
		if (!row) continue;
		const parent = row.parent_id && !formatOf(row.agent).positionalIds ? bySessionUuid.get(row.parent_id) : undefined;
		const target = parent !== undefined && parent !== session && entryIds.get(parent)?.has(hit.entry_id) ? parent : session;
		if (target !== session) {
			const list = forksOf.get(target) ?? [];
			list.push({ sessionId: row.session_id ?? "", path: row.path });
			forksOf.set(target, list);
		}
		if (!order.includes(target)) order.push(target);
	}
	return order.map((session) => ({ session, best: best.get(session)!, hits: counts.get(session) ?? 1, forks: forksOf.get(session) ?? [] }));
}
