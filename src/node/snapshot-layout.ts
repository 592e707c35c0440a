/**
 * The file `lookback serve` hands to the page, laid out for reading by ranges: the same database (every table,
 * index and row of the index) copied into a new file in an order of our choosing, with 64 KiB pages.
 *
 * - 64 KiB pages: every b-tree of a 2 GB index is then a root and its leaves, so a row costs one request
 *   (plus the root, once), and a request costs the page about the same whatever its size up to 256 KiB
 *   (measured: the round trip, not the bytes, is what a synchronous range request waits for).
 * - The roots of all tables first, then the bulk that a query reads a few rows of (the stored text, the
 *   words' doclists), then what nearly every query reads a row of per match or per word, the most read last:
 *   the vocabulary, the sessions, the trigram index of the vocabulary, each entry's column sizes (BM25) and the
 *   covering index of a match's entry columns. The page prefetches the roots and that tail (`prefetch`, in the
 *   order to read them) while the person reads the landing page, so a first query waits on few requests.
 * - Beside the sessions, the per-session usage sums (`usage_hours`, `session_tools`): with the roots, what opening
 *   the index and any first view read (the overview counts the sessions, a listed session shows its cost, the
 *   usage dashboard sums nothing else). The page fetches those (`open`) before it opens the index, in a few
 *   requests at once, where reading them as SQLite asks takes a synchronous request after another.
 *
 * SQLite's VACUUM INTO copies tables in the order they were created, so the copy is made here: the schema is
 * created first (every root), the rows copied a table at a time (FTS5's shadow tables as the plain tables they
 * are), and each index built after its rows.
 */

import { CANDIDATE_INDEX, type Database } from "../core/index.js";

/** Bytes of the file to prefetch, most useful first: [start, end) each. */
export type ByteRanges = [number, number][];

/** What the page should read of the snapshot ahead of SQLite: before it opens the index, then in the background. */
export interface SnapshotReads {
	/** Every table's root, the sessions and their usage sums: what opening and every first view read. */
	open: ByteRanges;
	/** What nearly every query reads, most useful first (the roots first). */
	prefetch: ByteRanges;
}

/** The page size of the copy: SQLite's largest. */
export const SNAPSHOT_PAGE_BYTES = 65536;

/** Tables a query reads a few rows of: copied first, never prefetched. */
const BULK = ["entries", "entries_fts_data", "entries_deep_data"];
/** Tables read per word or per match, in the order they are copied after the others (the last is prefetched first). */
const HOT = ["vocab", "meta", "usage_hours", "session_tools", "sessions", "vocab_fts_data", "entries_deep_docsize", "entries_fts_docsize"];
/** Of those, what the page reads before it opens the index (with every root): adjacent in HOT, so one range. */
const OPENING = ["usage_hours", "session_tools", "sessions"];
/** Indexes read per match: built last of all. */
const HOT_INDEXES = [CANDIDATE_INDEX];

interface SchemaRow {
	type: string;
	name: string;
	tbl_name: string;
	sql: string;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The rows of a query as objects of its columns. */
function rows<T>(db: Database, sql: string): T[] {
	const [result] = db.exec(sql);
	if (!result) return [];
	return result.values.map((values) => Object.fromEntries(result.columns.map((column, i) => [column, values[i]])) as T);
}

/**
 * Copy the database `db` has open (with the covering index already made) into `to` (an engine path of a file
 * that does not exist yet), laid out as above. Returns the byte ranges the page should read ahead.
 */
export function layOutSnapshot(db: Database, to: string): SnapshotReads {
	const schema = rows<SchemaRow>(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid");
	const userVersion = rows<{ user_version: number }>(db, "PRAGMA user_version")[0]?.user_version ?? 0;
	const applicationId = rows<{ application_id: number }>(db, "PRAGMA application_id")[0]?.application_id ?? 0;
	db.run("ATTACH ? AS copy", [to]);
	try {
		db.run(`PRAGMA copy.page_size = ${SNAPSHOT_PAGE_BYTES}`);
		db.run("PRAGMA copy.journal_mode = OFF");
		db.run(`PRAGMA copy.user_version = ${userVersion}`);
		db.run(`PRAGMA copy.application_id = ${applicationId}`);
		const pages = () => rows<{ page_count: number }>(db, "PRAGMA copy.page_count")[0]?.page_count ?? 0;
		const bytes = (from: number, until: number): [number, number] => [from * SNAPSHOT_PAGE_BYTES, until * SNAPSHOT_PAGE_BYTES];
		const inCopy = (sql: string) => sql.replace(/^(CREATE (?:VIRTUAL )?TABLE|CREATE (?:UNIQUE )?INDEX) /i, "$1 copy.");

		let roots: [number, number] = [0, 0];
		const warm: [number, number][] = [];
		const opening: [number, number] = [Number.POSITIVE_INFINITY, 0];
		db.run("BEGIN");
		try {
			// Virtual tables first: creating one creates its shadow tables, which the schema lists again as plain tables.
			for (const row of schema.filter((r) => r.type === "table" && /^CREATE VIRTUAL TABLE/i.test(r.sql))) db.run(inCopy(row.sql));
			const made = new Set(rows<{ name: string }>(db, "SELECT name FROM copy.sqlite_schema").map((r) => r.name));
			const tables = schema.filter((r) => r.type === "table" && !/^CREATE VIRTUAL TABLE/i.test(r.sql) && !r.name.startsWith("sqlite_"));
			for (const row of tables) if (!made.has(row.name)) db.run(inCopy(row.sql));
			roots = bytes(0, pages());

			const copy = (name: string) => {
				db.run(`DELETE FROM copy.${quoted(name)}`);
				db.run(`INSERT INTO copy.${quoted(name)} SELECT * FROM main.${quoted(name)}`);
			};
			const indexes = schema.filter((r) => r.type === "index");
			const indexesOf = (names: string[]) => {
				for (const index of indexes) if (names.includes(index.tbl_name) && !HOT_INDEXES.includes(index.name)) db.run(inCopy(index.sql));
			};
			const names = tables.map((t) => t.name);
			const bulk = BULK.filter((n) => names.includes(n));
			const hot = HOT.filter((n) => names.includes(n));
			const rest = names.filter((n) => !bulk.includes(n) && !hot.includes(n));
			for (const name of bulk) copy(name);
			indexesOf(bulk);
			// The small tables of FTS5 (its settings, its segments' first terms) and any a newer schema adds: prefetched last.
			const from = pages();
			for (const name of rest) copy(name);
			indexesOf(rest);
			warm.push(bytes(from, pages()));
			for (const name of hot) {
				const from = pages();
				copy(name);
				indexesOf([name]);
				warm.push(bytes(from, pages()));
				if (OPENING.includes(name)) [opening[0], opening[1]] = [Math.min(opening[0], from), pages()];
			}
			for (const index of indexes.filter((i) => HOT_INDEXES.includes(i.name))) {
				const from = pages();
				db.run(inCopy(index.sql));
				warm.push(bytes(from, pages()));
			}
			db.run("COMMIT");
		} catch (error) {
			db.run("ROLLBACK");
			throw error;
		}
		const ranges = (list: [number, number][]) => list.filter(([start, end]) => end > start);
		return {
			open: ranges([roots, ...(opening[1] > 0 ? [bytes(opening[0], opening[1])] : [])]),
			prefetch: ranges([roots, ...warm.reverse()]),
		};
	} finally {
		db.run("DETACH copy");
	}
}
