/**
 * The index schema. Text is stored once in `entries.body` (deflated when long, see body-codec.ts); the FTS5 table is contentless (unicode61 words,
 * one column per role for weighted BM25), and a trigram index over the vocabulary answers substrings and typos.
 * An entry cut to its head and tail has its whole text in `entries_deep` as words without positions (detail=none:
 * a few points of the corpus size, where positions would cost ~15), and keeps its byte range in its file to cut a snippet from.
 *
 * A message copied into another file of its project with its id (an agent whose ids are unique across files,
 * `SessionFormat.sharedIds`: Claude Code's older resume, its forks) is indexed once. Each file's entry of it keeps
 * `ukey`, a hash of the project folder and the id (`entries_ukey`); the row of the session that ranks first
 * (earliest `started`, then path: sync/copies.ts) holds the text (`body`, the FTS rows, usage), every other row is
 * a copy (`body` and `chars` NULL, nothing searchable) whose text is read from the holder's row (`ENTRY_BODY`).
 */

import { DEFAULTS } from "../defaults.js";
import { type BranchState, SIDE_ENTRY_TYPE, type TreeNode } from "../parse/branch.js";
import { ROLES } from "../parse/entry-text.js";
import { PRICE_SOURCE } from "../usage/prices.js";
import type { Database } from "./engine.js";
import { queryOne } from "./engine.js";

/**
 * Bumped on any change to the tables; an index of another version is rebuilt. (Not for `STAMP_TABLES`, a cache the
 * sync adds to an index that lacks it.)
 */
export const SCHEMA_VERSION = 12;

/**
 * What the sessions cost and did (usage-writer.ts writes them, usage/report.ts reads them). `usage`: one row per
 * model answer (or usage reported apart from one), keyed by `key` to find the same message copied into a fork,
 * which counts once (`dup`: one row of a key counted, found by `usage_key`); `tool_calls`: its tool calls by name, with the errors their results reported.
 * `usage_hours` and `session_tools` are their sums per session and hour (and model, or tool), made again whenever a
 * session changes: every report reads only those and `sessions`, so a page reading the index by HTTP ranges
 * fetches a few hundred KB of them, never the messages. A tool call counts in the hour of the answer that made it,
 * its error too, so a time filter cuts tool counts where it cuts tokens (`lookback usage`'s and the dashboard's agree).
 */
const USAGE_TABLES = `
CREATE TABLE models(id INTEGER PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, UNIQUE(provider, model));
CREATE TABLE usage(
  entry INTEGER PRIMARY KEY,
  session INTEGER NOT NULL,
  ts INTEGER,
  model INTEGER NOT NULL DEFAULT 0,
  message INTEGER NOT NULL DEFAULT 1,
  input INTEGER NOT NULL DEFAULT 0,
  output INTEGER NOT NULL DEFAULT 0,
  cache_read INTEGER NOT NULL DEFAULT 0,
  cache_write INTEGER NOT NULL DEFAULT 0,
  cache_write_1h INTEGER NOT NULL DEFAULT 0,
  tier TEXT,
  cost REAL,
  estimated INTEGER NOT NULL DEFAULT 0,
  tools INTEGER NOT NULL DEFAULT 0,
  key INTEGER NOT NULL,
  dup INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX usage_session ON usage(session);
CREATE INDEX usage_key ON usage(key, dup);
CREATE TABLE tool_calls(entry INTEGER NOT NULL, tool TEXT NOT NULL, calls INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(entry, tool)) WITHOUT ROWID;
CREATE TABLE touched_files(session INTEGER NOT NULL, path TEXT NOT NULL, edits INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(session, path)) WITHOUT ROWID;
CREATE TABLE usage_hours(
  session INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  model INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  input INTEGER NOT NULL,
  output INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  cost REAL NOT NULL,
  estimated REAL NOT NULL,
  unpriced INTEGER NOT NULL,
  tools INTEGER NOT NULL,
  PRIMARY KEY(session, hour, model)
) WITHOUT ROWID;
CREATE TABLE session_tools(
  session INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  tool TEXT NOT NULL,
  calls INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  PRIMARY KEY(session, hour, tool)
) WITHOUT ROWID;
`;

/**
 * What the index holds of every file's stamp (path, size, mtime, root, agent, gone), kept as one JSON text
 * (`stamp_cache`, made by sync/stamps.ts) with the paths whose row changed since (`stamp_changes`, kept by the
 * triggers, whoever writes): a sync reads the text and the few rows changed, not every row. Created with
 * IF NOT EXISTS by the sync that first makes the cache, so an index made before them is not rebuilt, and an
 * older lookback's writes keep them true (the triggers are the file's own).
 */
export const STAMP_TABLES = `
CREATE TABLE IF NOT EXISTS stamp_cache(id INTEGER PRIMARY KEY CHECK (id = 1), stamps TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stamp_changes(path TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS stamps_insert AFTER INSERT ON sessions BEGIN
  INSERT OR IGNORE INTO stamp_changes(path) VALUES (new.path);
END;
CREATE TRIGGER IF NOT EXISTS stamps_update AFTER UPDATE OF path, size, mtime, root, agent, gone_at ON sessions BEGIN
  INSERT OR IGNORE INTO stamp_changes(path) VALUES (old.path);
  INSERT OR IGNORE INTO stamp_changes(path) VALUES (new.path);
END;
CREATE TRIGGER IF NOT EXISTS stamps_delete AFTER DELETE ON sessions BEGIN
  INSERT OR IGNORE INTO stamp_changes(path) VALUES (old.path);
END;
`;

/**
 * The columns of `entries_fts`: one per role, then the blocks of user and meta text that many sessions share word
 * for word (sync/shared-text.ts), which a search reads after the sessions' own words.
 */
export const FTS_COLUMNS = [...ROLES, "shared"] as const;
/** The columns of `entries_fts` that hold a session's own words (an FTS5 column filter). */
export const OWN_COLUMNS = `{${ROLES.join(" ")}}`;

/**
 * Application id written into the SQLite header ("LkBk", bytes 68–71), so a foreign database is told apart, before
 * it is opened too (src/node/file-storage.ts).
 */
export const APPLICATION_ID = 0x4c6b426b;

const TABLES = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE sessions(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  root TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime INTEGER NOT NULL,
  consumed INTEGER NOT NULL,
  head_off INTEGER NOT NULL DEFAULT 0,
  head_len INTEGER NOT NULL,
  head_hash TEXT NOT NULL,
  malformed INTEGER NOT NULL DEFAULT 0,
  problem TEXT,
  session_id TEXT,
  version INTEGER,
  cwd TEXT,
  name TEXT,
  started INTEGER,
  modified INTEGER,
  parent_path TEXT,
  parent_id TEXT,
  first_prompt TEXT,
  message_count INTEGER NOT NULL DEFAULT 0,
  entry_count INTEGER NOT NULL DEFAULT 0,
  next_seq INTEGER NOT NULL DEFAULT 0,
  last_entry TEXT,
  agent TEXT NOT NULL DEFAULT 'pi',
  kind TEXT NOT NULL DEFAULT 'session',
  spawned_by TEXT,
  gone_at INTEGER
);
CREATE INDEX sessions_session_id ON sessions(session_id);
CREATE INDEX sessions_modified ON sessions(modified);
CREATE TABLE entries(
  id INTEGER PRIMARY KEY,
  session INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  entry_id TEXT NOT NULL,
  parent_id TEXT,
  type TEXT NOT NULL,
  role TEXT,
  ts INTEGER,
  state INTEGER NOT NULL DEFAULT 0,
  kept TEXT,
  tool TEXT,
  chars INTEGER,
  ukey INTEGER,
  body,
  off INTEGER,
  len INTEGER,
  deep INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX entries_session ON entries(session, seq);
CREATE INDEX entries_ukey ON entries(ukey) WHERE ukey IS NOT NULL;
CREATE TABLE vocab(id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, stem TEXT);
CREATE INDEX vocab_stem ON vocab(stem) WHERE stem IS NOT NULL;
CREATE VIRTUAL TABLE vocab_fts USING fts5(term, content='vocab', content_rowid='id', tokenize='trigram', detail=none, columnsize=0);
CREATE VIRTUAL TABLE entries_fts USING fts5(
  ${FTS_COLUMNS.join(", ")},
  content='', contentless_delete=1,
  tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE entries_terms USING fts5vocab(entries_fts, 'row');
CREATE VIRTUAL TABLE entries_deep USING fts5(words, content='', contentless_delete=1, detail=none, tokenize='unicode61 remove_diacritics 2');
CREATE TABLE text_blocks(hash INTEGER NOT NULL, session INTEGER NOT NULL, family INTEGER NOT NULL, PRIMARY KEY(hash, session)) WITHOUT ROWID;
CREATE INDEX text_blocks_session ON text_blocks(session);
${USAGE_TABLES}`;

/**
 * An entry's stored text as a query over `entries e` selects it: its own, or for a copy of a message held by
 * another session's row (see above), the holder's. SQLite's coalesce stops at the first value: a row with its
 * own text looks nothing up.
 */
export const ENTRY_BODY =
	"coalesce(e.body, (SELECT h.body FROM entries h WHERE h.ukey = e.ukey AND h.entry_id = e.entry_id AND h.body IS NOT NULL LIMIT 1))";
/** Whether an entry has text (`ENTRY_BODY` is not null), without reading the text: SQLite tests NULL from the record's header. */
export const ENTRY_HAS_BODY =
	"(e.body IS NOT NULL OR (e.ukey IS NOT NULL AND EXISTS (SELECT 1 FROM entries h WHERE h.ukey = e.ukey AND h.entry_id = e.entry_id AND h.body IS NOT NULL)))";

/** The key of `meta` set once some text is shared (sync/shared-text.ts): until then a search has no boilerplate tier to run. */
export const SHARED_TEXT_KEY = "shared_text";

/** The full-text indexes (FTS5 tables): what a merge after a large sync rewrites. */
export const FTS_TABLES = ["entries_fts", "entries_deep", "vocab_fts"] as const;

/** The tree node of a stored entry: every walk of an indexed session's tree makes its nodes here. */
export function entryNode(r: { entry_id: string; parent_id: string | null; seq: number; type: string; kept?: string | null }): TreeNode {
	return {
		id: r.entry_id,
		parentId: r.parent_id,
		seq: r.seq,
		...(r.kept ? { firstKeptEntryId: r.kept } : {}),
		...(r.type === SIDE_ENTRY_TYPE ? { side: true } : {}),
	};
}

/** Numeric codes of branch states in `entries.state`. */
export const STATE_CODE: Record<BranchState, number> = { active: 0, abandoned: 1, compacted: 2 };
export const STATE_NAME: readonly BranchState[] = ["active", "abandoned", "compacted"];

/** Create the tables in an empty database. */
export function createSchema(db: Database): void {
	db.run(`PRAGMA application_id = ${APPLICATION_ID}`);
	db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
	db.run(TABLES);
	db.run(STAMP_TABLES);
	const weights = [...ROLES.map((role) => DEFAULTS.columnWeights[role]), DEFAULTS.sharedColumnWeight];
	db.run(`INSERT INTO entries_fts(entries_fts, rank) VALUES('rank', 'bm25(${weights.join(", ")})')`);
	db.run("INSERT INTO meta(key, value) VALUES ('generation', '0')");
	db.run("INSERT INTO meta(key, value) VALUES ('prices', ?)", [PRICE_SOURCE]);
}

/** Why a loaded database cannot be used as an index, or undefined when it can. */
export function schemaProblem(db: Database): string | undefined {
	const appId = queryOne<{ application_id: number }>(db, "PRAGMA application_id")?.application_id;
	const version = queryOne<{ user_version: number }>(db, "PRAGMA user_version")?.user_version;
	if (appId !== APPLICATION_ID) return "not a lookback index (foreign SQLite database)";
	if (version !== SCHEMA_VERSION) return `index schema version ${version}, this lookback reads version ${SCHEMA_VERSION}`;
	return undefined;
}

/** Whether a database has nothing in it yet (a new file). */
export function isEmptyDatabase(db: Database): boolean {
	return (queryOne<{ n: number }>(db, "SELECT count(*) AS n FROM sqlite_master")?.n ?? 0) === 0;
}

/**
 * Settings for a session of work on the database (not stored in the file). A snapshot lives in memory, so
 * its journal can too; a file opened in place needs a real rollback journal, synced, or a crash mid-commit
 * would corrupt it. WAL is out: it needs shared memory, which the wasm engine does not have.
 */
export function applyPragmas(db: Database, kind: "snapshot" | "in-place"): void {
	if (kind === "in-place") {
		db.run("PRAGMA journal_mode = DELETE");
		db.run("PRAGMA synchronous = FULL");
	} else db.run("PRAGMA journal_mode = MEMORY");
	db.run("PRAGMA temp_store = MEMORY");
	db.run(`PRAGMA cache_size = -${DEFAULTS.pageCacheKiB}`);
}
