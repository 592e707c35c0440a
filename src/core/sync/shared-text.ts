/**
 * Shared boilerplate (issue 34, point 3): text that many sessions share word for word — a harness's system and
 * developer prompts, its permission and skill lists, an AGENTS.md or CLAUDE.md it injects, a doc pasted into
 * every session — is recognised at index time and indexed in the FTS table's `shared` column, which a search
 * reads only after the sessions' own words (search/tiers.ts), so that a session's own words always outrank it.
 *
 * A block is a paragraph of a user or meta entry (the roles text is injected as) of at least
 * `DEFAULTS.sharedBlockMinChars`; `text_blocks` names each block's hash with the sessions that hold it and their
 * family (a fork and the session it was forked from are one family: a prompt copied into a fork is not shared
 * by two sessions). A block held by `DEFAULTS.sharedBlockFamilies` families or more is shared. When a block
 * becomes shared, or stops being shared because a session holding it went, the entries holding it are indexed
 * again, so the columns follow from the sessions indexed, not from the order they came in.
 */

import type { Statement } from "sql.js";
import { DEFAULTS } from "../defaults.js";
import type { Role } from "../parse/roles.js";
import { decodeBody } from "../store/body-codec.js";
import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { SHARED_TEXT_KEY } from "../store/schema.js";
import { keyHash } from "./hash.js";

/** The roles whose text is split into blocks: what a harness injects and what people paste. */
export const SHARED_ROLES: readonly Role[] = ["user", "meta"];

/** The paragraphs of a text long enough to be boilerplate, with their hashes. */
function blocksOf(text: string): { text: string; hash: number }[] {
	const out: { text: string; hash: number }[] = [];
	for (const part of text.split(/\n[ \t]*\n/)) {
		const block = part.trim();
		if (block.length >= DEFAULTS.sharedBlockMinChars) out.push({ text: block, hash: keyHash(block) });
	}
	return out;
}

/** An entry's text split for the FTS table: its own words, and the shared blocks. */
export interface SplitText {
	own: string;
	shared: string;
}

export class SharedText {
	private readonly note: Statement;
	private readonly families: Statement;
	/** Families holding a block, as counted in this writer's transaction (dropped whenever one changes). */
	private readonly counted = new Map<number, number>();
	private readonly familyOf = new Map<number, number>();

	constructor(
		private readonly db: Database,
		/** Index one entry's FTS row again, its user or meta text split anew. */
		private readonly reindex: (entry: number, role: Role, split: SplitText) => void,
	) {
		this.note = db.prepare("INSERT OR IGNORE INTO text_blocks(hash, session, family) VALUES (?,?,?)");
		this.families = db.prepare("SELECT count(DISTINCT family) AS n FROM text_blocks WHERE hash = ?");
	}

	/** The family of a session: the first session of its line of forks (the parent named in its header), by rowid. */
	private family(session: number): number {
		const known = this.familyOf.get(session);
		if (known !== undefined) return known;
		let family = session;
		for (let depth = 0; depth < 16; depth++) {
			const parent = queryOne<{ id: number }>(
				this.db,
				"SELECT p.id FROM sessions s CROSS JOIN sessions p ON p.session_id = s.parent_id WHERE s.id = ? AND p.id != s.id LIMIT 1",
				[family],
			)?.id;
			if (parent === undefined) break;
			family = parent;
		}
		this.familyOf.set(session, family);
		return family;
	}

	private familiesHolding(hash: number): number {
		const known = this.counted.get(hash);
		if (known !== undefined) return known;
		this.families.bind([hash]);
		this.families.step();
		const n = Number(this.families.getAsObject().n ?? 0);
		this.families.reset();
		this.counted.set(hash, n);
		return n;
	}

	private isShared(hash: number): boolean {
		return this.familiesHolding(hash) >= DEFAULTS.sharedBlockFamilies;
	}

	/** A text split by what of it is shared now. */
	private split(text: string): SplitText {
		const blocks = blocksOf(text).filter((b) => this.isShared(b.hash));
		if (blocks.length === 0) return { own: text, shared: "" };
		let own = text;
		for (const b of blocks) own = own.split(b.text).join("\n");
		return { own, shared: blocks.map((b) => b.text).join("\n\n") };
	}

	/**
	 * Note the blocks of a new entry of `session` (before its row is written) and split its text. A block this entry
	 * makes shared has the entries already indexed that hold it indexed again first.
	 */
	add(session: number, text: string): SplitText {
		const blocks = blocksOf(text);
		if (blocks.length === 0) return { own: text, shared: "" };
		const family = this.family(session);
		const crossed: number[] = [];
		for (const b of new Set(blocks.map((b) => b.hash))) {
			const before = this.familiesHolding(b);
			this.note.run([b, session, family]);
			// SQL's changes(), which every engine has (the built-in ones' adapters have no getRowsModified).
			if (queryOne<{ n: number }>(this.db, "SELECT changes() AS n")?.n === 0) continue;
			this.counted.delete(b);
			if (before < DEFAULTS.sharedBlockFamilies && this.familiesHolding(b) >= DEFAULTS.sharedBlockFamilies) crossed.push(b);
		}
		if (crossed.length > 0) this.db.run(`INSERT OR REPLACE INTO meta(key, value) VALUES ('${SHARED_TEXT_KEY}', '1')`);
		for (const hash of crossed) this.reindexHolders(hash);
		return this.split(text);
	}

	/** Forget the blocks of a session that goes; the blocks it leaves held by too few families are own words again. */
	purge(session: number): void {
		const hashes = queryAll<{ hash: number }>(this.db, "SELECT hash FROM text_blocks WHERE session = ?", [session]).map((r) => r.hash);
		if (hashes.length === 0) return;
		const wasShared = hashes.filter((h) => this.isShared(h));
		this.db.run("DELETE FROM text_blocks WHERE session = ?", [session]);
		this.familyOf.delete(session);
		for (const h of hashes) this.counted.delete(h);
		for (const h of wasShared) if (!this.isShared(h)) this.reindexHolders(h);
	}

	/** Index again the user and meta entries holding a block, in every session that holds it (the entry being added is not written yet). */
	private reindexHolders(hash: number): void {
		const sessions = queryAll<{ session: number }>(this.db, "SELECT session FROM text_blocks WHERE hash = ?", [hash]).map((r) => r.session);
		for (const session of sessions) {
			for (const row of queryAll<{ id: number; role: Role; body: unknown }>(
				this.db,
				`SELECT id, role, body FROM entries WHERE session = ? AND role IN (${SHARED_ROLES.map((r) => `'${r}'`).join(",")}) AND body IS NOT NULL`,
				[session],
			)) {
				const text = decodeBody(row.body);
				if (blocksOf(text).some((b) => b.hash === hash)) this.reindex(row.id, row.role, this.split(text));
			}
		}
	}

	finish(): void {
		this.note.free();
		this.families.free();
	}
}
