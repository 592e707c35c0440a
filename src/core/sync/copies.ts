/**
 * A message copied into another file of its project is indexed once (schema.ts, `ukey`). Which file's row holds
 * it is decided by a rank that no order of indexing changes: the session that started first (its first message
 * line's time: an older Claude Code resume copies the history with its times, a fork the part after a compaction),
 * then the path. A copy's row is written like the holder's but without its text; when the new row's session ranks
 * first, the two rows trade their place in their sessions (session, seq, parent, branch state, line, time), so the
 * row with the text and its FTS rows stay where they are and the text is never written twice (each line's usage
 * goes with its session's row: a fork's copy may say other tokens, usage-writer.ts counts one). A holder purged
 * hands each of its messages to the next session that has a copy the same way.
 */

import type { Statement } from "sql.js";
import { formatOf } from "../parse/formats.js";
import type { AgentKind } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { sessionRank } from "../store/session-rank.js";
import { keyHash } from "./hash.js";

/** The columns that place a row in its session's file and tree; the rest are the message's own. */
const PLACE = ["session", "seq", "parent_id", "state", "off", "len", "ts"] as const;
type Place = Record<(typeof PLACE)[number], number | string | null>;

const RANK = sessionRank("s");

/**
 * The folder a file's copies are looked for in: its project folder, the first folder under the root it was found
 * in (Claude Code's `<projects>/<project>/`, sub-agents below it), else the folder it is in.
 */
function projectFolder(path: string, root: string): string {
	const rest = root && path.startsWith(root) ? path.slice(root.length).replace(/^[\\/]+/, "") : "";
	const cut = rest.search(/[\\/]/);
	if (cut > 0) return path.slice(0, path.length - rest.length + cut);
	return path.slice(0, Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

export class Copies {
	private readonly scopes = new Map<number, string | null>();
	/** Copy rows written per session since its copies were last settled. */
	private readonly pending = new Map<number, number[]>();
	private readonly holderOf: Statement;
	private readonly placeOf: Statement;
	private readonly place: Statement;

	constructor(private readonly db: Database) {
		this.holderOf = db.prepare("SELECT id FROM entries WHERE ukey = ? AND entry_id = ? AND body IS NOT NULL LIMIT 1");
		this.placeOf = db.prepare(`SELECT ${PLACE.join(", ")} FROM entries WHERE id = ?`);
		this.place = db.prepare(`UPDATE entries SET ${PLACE.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`);
	}

	/** The key of an entry of `session` with text, or null when its agent's ids name nothing beyond their file. */
	key(session: number, entryId: string): number | null {
		let scope = this.scopes.get(session);
		if (scope === undefined) {
			const row = queryOne<{ path: string; root: string; agent: AgentKind }>(
				this.db,
				"SELECT path, root, agent FROM sessions WHERE id = ?",
				[session],
			);
			scope = row && formatOf(row.agent).sharedIds ? projectFolder(row.path, row.root) : null;
			this.scopes.set(session, scope);
		}
		return scope === null ? null : keyHash(`${scope}\u0000${entryId}`);
	}

	/** The row holding the text of the message with this key, if one is indexed. */
	holder(key: number, entryId: string): number | undefined {
		this.holderOf.bind([key, entryId]);
		const found = this.holderOf.step() ? (this.holderOf.getAsObject().id as number) : undefined;
		this.holderOf.reset();
		return found;
	}

	/** A copy row was written for `session`: settled once the session's start is known (`settle`). */
	noteCopy(session: number, rowid: number): void {
		const list = this.pending.get(session) ?? [];
		list.push(rowid);
		this.pending.set(session, list);
	}

	/**
	 * After a session's entries are in and its start is known: each copy it was given whose session ranks before the
	 * holder's takes the text. Calls `traded` for each pair of rows that traded places.
	 */
	settle(session: number, traded: (held: number, copy: number) => void): void {
		const copies = this.pending.get(session);
		this.pending.delete(session);
		if (!copies || copies.length === 0) return;
		const pairs = queryAll<{ copy: number; held: number; holder: number; first: number }>(
			this.db,
			`SELECT c.id AS copy, h.id AS held, h.session AS holder,
			  (SELECT ${RANK} FROM sessions s WHERE s.id = c.session) < (SELECT ${RANK} FROM sessions s WHERE s.id = h.session) AS first
			 FROM entries c CROSS JOIN entries h ON h.ukey = c.ukey AND h.entry_id = c.entry_id AND h.body IS NOT NULL
			 WHERE c.id IN (${copies.join(",")}) AND h.session != c.session`,
		);
		for (const p of pairs) if (p.first) this.trade(p.held, p.copy, traded);
	}

	/** Before a session's rows go: each message it holds that another session has a copy of goes to the first of those. */
	handOver(session: number, traded: (held: number, copy: number) => void): void {
		this.pending.delete(session);
		this.scopes.delete(session);
		const pairs = queryAll<{ held: number; copy: number }>(
			this.db,
			`SELECT h.id AS held, (SELECT c.id FROM entries c CROSS JOIN sessions s ON s.id = c.session
			   WHERE c.ukey = h.ukey AND c.entry_id = h.entry_id AND c.session != h.session AND c.body IS NULL ORDER BY ${RANK}, c.id LIMIT 1) AS copy
			 FROM entries h WHERE h.session = ? AND h.ukey IS NOT NULL AND h.body IS NOT NULL`,
			[session],
		);
		for (const p of pairs) if (p.copy !== null) this.trade(p.held, p.copy, traded);
	}

	/** Two rows of one message trade their places: the held text goes to the copy's session, the copy to the holder's. */
	private trade(held: number, copy: number, traded: (held: number, copy: number) => void): void {
		const a = this.read(held);
		const b = this.read(copy);
		this.place.run([...PLACE.map((c) => b[c]), held]);
		this.place.run([...PLACE.map((c) => a[c]), copy]);
		traded(held, copy);
	}

	private read(row: number): Place {
		this.placeOf.bind([row]);
		this.placeOf.step();
		const place = this.placeOf.getAsObject() as Place;
		this.placeOf.reset();
		return place;
	}

	finish(): void {
		for (const stmt of [this.holderOf, this.placeOf, this.place]) stmt.free();
	}
}
