/** Writes parsed entries of one session into the tables, and refreshes what depends on the whole session. */

import type { Statement } from "sql.js";
import { DEFAULTS } from "../defaults.js";
import { branchStates } from "../parse/branch.js";
import { type EntryText, entryText, ROLES } from "../parse/entry-text.js";
import type { SessionEntry } from "../parse/session-format.js";
import { encodeBody } from "../store/body-codec.js";
import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { entryNode, FTS_COLUMNS, STATE_CODE } from "../store/schema.js";
import { cjkIndexForm } from "../text/cjk.js";
import { stem } from "../text/stem.js";
import { toEpochMs } from "../text/time.js";
import { distinctTokens, foldWord, isPlainWord, isVocabularyWord, wordsOf } from "../text/words.js";
import { Copies } from "./copies.js";
import { SHARED_ROLES, SharedText, type SplitText } from "./shared-text.js";
import { UsageWriter } from "./usage-writer.js";

const MESSAGE_TYPES = "('user','assistant','toolResult','bashExecution','custom')";

/** A prompt that names nothing: only a slash command (`/mode`, `/model gpt-5`), only an attachment, or empty. Skipped for the title and preview. */
export function saysNothing(prompt: string): boolean {
	const text = prompt.replace(/\[image\]/g, "").trim();
	return text.length === 0 || /^\/[\w:.-]+(\s+\S+)?$/.test(text);
}

/** An entry's texts with `redact` applied to each: its columns, its body, its whole text and its tool. */
function redactedText(text: EntryText | undefined, redact: (text: string) => string): EntryText | undefined {
	if (!text) return undefined;
	const columns: EntryText["columns"] = {};
	for (const role of ROLES) {
		const column = text.columns[role];
		if (column !== undefined) columns[role] = redact(column);
	}
	return {
		...text,
		columns,
		body: redact(text.body),
		...(text.whole !== undefined ? { whole: redact(text.whole) } : {}),
		...(text.tool !== undefined ? { tool: redact(text.tool) } : {}),
	};
}

/** Prepared statements kept for one sync. */
export class SessionWriter {
	private readonly insertEntry: Statement;
	private readonly insertFts: Statement;
	private readonly insertDeep: Statement;
	private readonly insertVocab: Statement;
	private readonly updateState: Statement;
	private readonly usage: UsageWriter;
	private readonly copies: Copies;
	private readonly shared: SharedText;
	private readonly deleteFts: Statement;
	/** Vocabulary words written by this writer (its transaction). */
	readonly seenWords = new Set<string>();
	private readonly vocabStart: number;
	/** Entry rowids are assigned here, in insertion order, so rowid order is recency order. */
	private nextRowid: number;
	entriesIndexed = 0;
	/** Entries of a message another file of the project holds (copies.ts): placed in their session's tree, not indexed again. */
	entriesCopied = 0;

	/**
	 * `committed`: vocabulary words already committed by earlier batches of the same sync (not written again).
	 * `redact`: applied to every text of an entry before anything of it is stored or indexed (a published shard).
	 */
	constructor(
		private readonly db: Database,
		private readonly committed: ReadonlySet<string> = new Set(),
		private readonly redact?: (text: string) => string,
	) {
		this.insertEntry = db.prepare(
			"INSERT INTO entries(id, session, seq, entry_id, parent_id, type, role, ts, kept, tool, chars, ukey, body, off, len, deep) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		);
		this.insertDeep = db.prepare("INSERT INTO entries_deep(rowid, words) VALUES (?,?)");
		this.insertFts = db.prepare(`INSERT INTO entries_fts(rowid, ${FTS_COLUMNS.join(", ")}) VALUES (?${",?".repeat(FTS_COLUMNS.length)})`);
		this.deleteFts = db.prepare("DELETE FROM entries_fts WHERE rowid = ?");
		this.insertVocab = db.prepare("INSERT OR IGNORE INTO vocab(term, stem) VALUES (?,?)");
		this.updateState = db.prepare("UPDATE entries SET state = ? WHERE id = ?");
		this.usage = new UsageWriter(db);
		this.copies = new Copies(db);
		this.shared = new SharedText(db, (entry, role, split) => {
			this.deleteFts.run([entry]);
			this.writeFts(entry, { [role]: split.own }, split.shared);
		});
		this.vocabStart = queryOne<{ m: number }>(db, "SELECT coalesce(max(id), 0) AS m FROM vocab")?.m ?? 0;
		this.nextRowid = (queryOne<{ m: number }>(db, "SELECT coalesce(max(id), 0) AS m FROM entries")?.m ?? 0) + 1;
	}

	/** Name and first prompt seen in the entries added since the last refresh (undefined: none seen). */
	private facts: { name?: string | null; firstPrompt?: string } = {};

	/** Insert the entries of one chunk of a session file. */
	addEntries(session: number, entries: SessionEntry[]): void {
		for (const entry of entries) {
			const text = this.redact ? redactedText(entryText(entry), this.redact) : entryText(entry);
			const message = entry.type === "message" ? (entry.raw.message as Record<string, unknown> | undefined) : undefined;
			const type = message && typeof message.role === "string" ? message.role : entry.type;
			const ts = toEpochMs(entry.timestamp) ?? toEpochMs(message?.timestamp) ?? null;
			const kept = entry.type === "compaction" && typeof entry.raw.firstKeptEntryId === "string" ? entry.raw.firstKeptEntryId : null;
			const rowid = this.nextRowid++;
			const ukey = text ? this.copies.key(session, entry.id) : null;
			const copy = ukey !== null && this.copies.holder(ukey, entry.id) !== undefined;
			// Before the entry's row: a block it makes shared has the entries holding it indexed again.
			const split: SplitText | undefined =
				text && !copy && SHARED_ROLES.includes(text.role) ? this.shared.add(session, text.columns[text.role] ?? "") : undefined;
			this.insertEntry.run([
				rowid,
				session,
				entry.seq,
				entry.id,
				entry.parentId,
				type,
				text?.role ?? null,
				ts,
				kept,
				text?.tool ?? null,
				copy ? null : (text?.body.length ?? null),
				ukey,
				text && !copy ? encodeBody(text.body) : null,
				entry.range?.start ?? null,
				entry.range ? entry.range.end - entry.range.start : null,
				text?.whole !== undefined ? 1 : 0,
			]);
			if (copy) this.copies.noteCopy(session, rowid);
			this.usage.add(session, rowid, entry, ts);
			if (entry.type === "session_info" || entry.type === "title_change") this.facts.name = text?.body ?? null;
			if (type === "user" && text && this.facts.firstPrompt === undefined && !saysNothing(text.body))
				this.facts.firstPrompt = text.body.slice(0, DEFAULTS.previewChars);
			if (copy) {
				this.entriesCopied++;
				continue;
			}
			if (!text) continue;
			if (split) this.writeFts(rowid, { [text.role]: split.own }, split.shared);
			else this.writeFts(rowid, text.columns, "");
			// A cut entry's whole text goes in as its distinct words (a table without positions needs no more),
			// taken from the uncut text, so no word is split where the stored head ends.
			if (text.whole !== undefined) {
				const tokens = distinctTokens(text.whole);
				this.insertDeep.run([rowid, cjkIndexForm(tokens.join(" "))]);
				this.addWords(tokens.map(foldWord));
			} else {
				for (const role of ROLES) {
					const column = text.columns[role];
					if (column) this.addWords(wordsOf(column));
				}
			}
			this.entriesIndexed++;
		}
	}

	/** An entry's FTS row: its own words by role, and the boilerplate it shares with many sessions. */
	private writeFts(rowid: number, columns: Partial<Record<(typeof ROLES)[number], string>>, shared: string): void {
		this.insertFts.run([rowid, ...ROLES.map((role) => cjkIndexForm(columns[role] ?? "")), cjkIndexForm(shared)]);
	}

	private addWords(words: string[]): void {
		for (const word of words) {
			if (this.seenWords.has(word) || this.committed.has(word) || !isVocabularyWord(word)) continue;
			this.seenWords.add(word);
			this.insertVocab.run([word, isPlainWord(word) ? stem(word) : null]);
		}
	}

	/** Recompute branch states and the session's summary columns after its entries changed. */
	refreshSession(session: number): void {
		const rows = queryAll<{
			id: number;
			seq: number;
			entry_id: string;
			parent_id: string | null;
			type: string;
			kept: string | null;
			state: number;
		}>(this.db, "SELECT id, seq, entry_id, parent_id, type, kept, state FROM entries WHERE session = ? ORDER BY seq", [session]);
		const states = branchStates(rows.map(entryNode));
		for (const r of rows) {
			const code = STATE_CODE[states.get(r.seq) ?? "abandoned"];
			if (code !== r.state) this.updateState.run([code, r.id]);
		}
		const last = rows[rows.length - 1];
		const s = session;
		const { name, firstPrompt } = this.facts;
		this.facts = {};
		// The last session_info in file order names the session (an empty one clears the name).
		if (name !== undefined) this.db.run("UPDATE sessions SET name = ? WHERE id = ?", [name, s]);
		if (firstPrompt !== undefined)
			this.db.run("UPDATE sessions SET first_prompt = coalesce(first_prompt, ?) WHERE id = ?", [firstPrompt, s]);
		this.db.run(
			`UPDATE sessions SET
			  started = coalesce(started, (SELECT min(ts) FROM entries WHERE session = ?)),
			  modified = coalesce((SELECT max(ts) FROM entries WHERE session = ? AND type IN ('user','assistant')), (SELECT max(ts) FROM entries WHERE session = ?), started),
			  message_count = (SELECT count(*) FROM entries WHERE session = ? AND type IN ${MESSAGE_TYPES}),
			  entry_count = ?,
			  last_entry = ?
			WHERE id = ?`,
			[s, s, s, s, rows.length, last?.entry_id ?? null, s],
		);
		this.usage.refresh(s);
		this.copies.settle(s, (held, copy) => this.usage.traded(held, copy));
	}

	/** Remove a session and everything indexed from it. */
	purgeSession(session: number): void {
		this.copies.handOver(session, (held, copy) => this.usage.traded(held, copy));
		this.shared.purge(session);
		this.usage.purge(session);
		// A copy has no rows of its own in the FTS tables.
		this.db.run(
			"DELETE FROM entries_fts WHERE rowid IN (SELECT id FROM entries WHERE session = ? AND role IS NOT NULL AND body IS NOT NULL)",
			[session],
		);
		this.db.run("DELETE FROM entries_deep WHERE rowid IN (SELECT id FROM entries WHERE session = ? AND deep = 1 AND body IS NOT NULL)", [
			session,
		]);
		this.db.run("DELETE FROM entries WHERE session = ?", [session]);
		this.db.run("DELETE FROM sessions WHERE id = ?", [session]);
	}

	/** Make new vocabulary words findable by substring, then release the statements. */
	finish(): void {
		this.db.run("INSERT INTO vocab_fts(rowid, term) SELECT id, term FROM vocab WHERE id > ?", [this.vocabStart]);
		for (const stmt of [this.insertEntry, this.insertFts, this.deleteFts, this.insertDeep, this.insertVocab, this.updateState]) stmt.free();
		this.shared.finish();
		this.usage.finish();
		this.copies.finish();
	}
}
