/** Session matches → the hits a search returns: the session's summary, the best entry, and a marked snippet. */

import { DEFAULTS } from "../defaults.js";
import { wholeTextOfLine } from "../parse/entry-text.js";
import { formatOf } from "../parse/formats.js";
import type { AgentKind } from "../parse/source.js";
import type { CompiledQuery } from "../query/compile.js";
import { sessionSummary } from "../read/session-rows.js";
import { sidechainSpawner, spawningEntryOf } from "../read/sessions.js";
import { decodeBody } from "../store/body-codec.js";
import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { STATE_CODE, STATE_NAME } from "../store/schema.js";
import { sessionRank } from "../store/session-rank.js";
import { makeSnippet } from "../text/snippet.js";
import { isoOf } from "../text/time.js";
import { groupBySession } from "./group.js";
import { type Candidate, type LineAt, type SearchPlan, sessionRows, storedEntry, type Table } from "./run.js";
import type { ReadRange, SearchHit, SearchResponse } from "./search.js";

/** Candidates (best first) → one result per session up to the limit, forks folded into their parent, with snippets. */
export function shapeResults(
	db: Database,
	candidates: Candidate[],
	query: CompiledQuery,
	plan: SearchPlan,
	table: Table,
): Pick<SearchResponse, "results" | "totalSessions"> {
	if (candidates.length === 0) return { results: [], totalSessions: 0 };
	const rows = sessionRows(db, candidates);
	const matches = groupBySession(candidates, rows, plan.exclude);
	const results = matches.slice(0, plan.limit).map(({ session, best: hit, hits, forks }) => {
		const row = rows.get(session)!;
		// A sub-agent's own file names the entry that spawned it; a hit in a sub-agent's conversation kept in its
		// session's file (an abandoned branch: never on the active one, never compacted) names the call that spawned
		// that conversation. Only then are the session's entries read: for every hit off the active branch, compacted
		// ones included, that read made queries over Claude Code's sessions 1.3× slower.
		const spawnedByEntryId =
			spawningEntryOf(db, row) ??
			(hit.state === STATE_CODE.abandoned && formatOf(row.agent).sideConversations
				? sidechainSpawner(db, session, hit.entry_id)
				: undefined);
		const stored = storedEntry(db, hit.id);
		return {
			...sessionSummary(row),
			...(spawnedByEntryId ? { spawnedByEntryId } : {}),
			entryId: hit.entry_id,
			role: hit.role,
			type: hit.type,
			time: isoOf(hit.ts),
			branchState: STATE_NAME[hit.state] ?? "active",
			...snippetOf(decodeBody(stored.body), stored, row, query.terms, table, plan.readRange),
			hits,
			score: hit.score,
			forks: formatOf(row.agent).sharedIds ? [...forks, ...copiesOf(db, hit.id, plan.exclude)] : forks,
		} satisfies SearchHit;
	});
	return { results, totalSessions: matches.length };
}

/** The other sessions whose files hold a copy of the message of an entry's row (sync/copies.ts), first started first. */
function copiesOf(db: Database, rowid: number, exclude: SearchPlan["exclude"]): SearchHit["forks"] {
	return queryAll<{ session_id: string | null; path: string; entry_id: string }>(
		db,
		`SELECT s.session_id, s.path, c.entry_id FROM entries h CROSS JOIN entries c ON c.ukey = h.ukey AND c.entry_id = h.entry_id
		 CROSS JOIN sessions s ON s.id = c.session WHERE h.id = ? AND h.ukey IS NOT NULL AND c.session != h.session
		 ORDER BY ${sessionRank("s")}`,
		[rowid],
	)
		.filter((r) => !exclude?.({ sessionPath: r.path, entryId: r.entry_id }))
		.map((r) => ({ sessionId: r.session_id ?? "", path: r.path }));
}

/**
 * The snippet of a hit: from the stored text when it holds a match; for a match in the cut middle of an
 * entry, from the entry's line in its session file, or the stored text marked as such when the file cannot be read.
 */
export function snippetOf(
	body: string,
	at: LineAt,
	{ path, agent }: { path: string; agent: AgentKind },
	terms: string[],
	table: Table,
	readRange?: ReadRange,
): Pick<SearchHit, "snippet" | "inMiddle"> {
	const stored = makeSnippet(body, terms);
	if (table === "entries_fts" || stored.includes(DEFAULTS.markOpen)) return { snippet: stored };
	const line = at.off !== null && at.len !== null ? readLine(readRange, path, at.off, at.len) : undefined;
	const whole = line ? wholeTextOfLine(line, agent) : undefined;
	const fromFile = whole ? makeSnippet(whole, terms) : undefined;
	if (fromFile?.includes(DEFAULTS.markOpen)) return { snippet: fromFile, inMiddle: "read from the session file" };
	return { snippet: `[match in the unstored middle] ${stored}`, inMiddle: "unstored" };
}

function readLine(readRange: ReadRange | undefined, path: string, off: number, len: number): Uint8Array | undefined {
	try {
		return readRange?.(path, off, off + len);
	} catch {
		return undefined;
	}
}
