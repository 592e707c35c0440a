/** Every tunable of lookback in one place: budgets, ranking weights, limits. */

import type { Role } from "./parse/entry-text.js";
import type { Scope } from "./query/session-filter.js";

export const DEFAULTS = {
	/** Session files larger than this are skipped and counted (32 MiB). */
	maxFileBytes: 32 * 1024 * 1024,
	/**
	 * Append-only files of another agent's format (Claude Code, Codex) are read whatever their size, this many
	 * bytes at a time, so memory stays bounded (Codex rollouts reach 2 GB); Pi's and omp's keep `maxFileBytes`.
	 */
	readChunkBytes: 4 * 1024 * 1024,
	/** A line longer than this in a file read in chunks is skipped and counted (`longLines`), never held whole (16 MiB). */
	maxLineBytes: 16 * 1024 * 1024,
	/** A compressed session (Codex's `.jsonl.zst`) is read up to this many inflated bytes; the rest is skipped and counted (4 GiB). */
	maxInflatedBytes: 4 * 1024 * 1024 * 1024,
	/** Of a tool's output an agent kept in a file of its own (Claude Code's `tool-results/`), this much is read and indexed. */
	spilledOutputMaxBytes: 1024 * 1024,
	/** User, assistant, summary and meta text longer than this is indexed as head + tail. */
	proseMaxChars: 20_000,
	/** Share of `proseMaxChars` kept from the head; the rest comes from the tail. */
	proseHeadShare: 0.7,
	/** Tool results, bash output and tool-call arguments are indexed as head + tail within this bound. */
	toolMaxChars: 2_000,
	/** Share of `toolMaxChars` kept from the head (errors sit at the end of logs, so the tail matters). */
	toolHeadShare: 0.6,
	/** BM25 weight of each role's FTS column (written into a new index; an index keeps the weights it was made with). */
	columnWeights: { user: 3.0, assistant: 2.0, tool: 0.5, summary: 2.5, meta: 4.0 } satisfies Record<Role, number>,
	/** BM25 weight of the FTS column of shared boilerplate (sync/shared-text.ts), read after the own words anyway. */
	sharedColumnWeight: 0.2,
	/** A paragraph of user or meta text this long or longer is a block that may be boilerplate; a shorter one is always a session's own. */
	sharedBlockMinChars: 200,
	/** A block held by this many families of sessions (a session with its forks) is shared boilerplate. */
	sharedBlockFamilies: 3,
	/** A query word of at least this many characters also matches indexed words that contain it. */
	substringMinChars: 3,
	/**
	 * The same for a word among others: three letters inside longer words are mostly other words (`out` →
	 * `about`, `route`, `layout`, `timeout`), tens of thousands of entries at 2 GB that a query must read and rank.
	 */
	substringMinCharsAmongWords: 4,
	/**
	 * A plain word of this many characters also matches indexed words that contain it anywhere (an identifier as
	 * typed, `tateSto`, and a word alone always do); a shorter one among others only those it begins, and in a
	 * question none: `text` → `context`, `plain` → `explain` matched shared boilerplate, not the word.
	 */
	infixMinChars: 8,
	/** How many indexed words one query word may expand to (shortest first). */
	substringMaxExpansions: 24,
	/**
	 * The words of one query share this many expansions (two words' worth), each keeping at least
	 * `substringMinExpansions`: every term is looked up, iterated and counted by BM25, so a ten-word question
	 * expanded word by word cost 3–4× a two-word query (at 50 MB, 312 terms against 96).
	 */
	substringQueryExpansions: 48,
	substringMinExpansions: 8,
	/**
	 * A query matching more entries than this is ranked among its newest this-many matches only: BM25 over
	 * every match of a very common word costs time in proportion to the matches (hundreds of ms at 500 MB),
	 * and for such words recency is what people want next.
	 */
	rankWindow: 1_000,
	/** Vocabulary words containing a fragment looked at before picking the shortest (bounds common fragments). */
	substringScan: 2_000,
	/** Other forms of a word (sharing its stem) one query word may expand to. */
	wordFormsMax: 16,
	/** Query words shorter than this are never corrected as typos. */
	typoMinChars: 4,
	/** Vocabulary words read per trigram of a mistyped word. */
	typoScan: 5_000,
	/** Vocabulary words sharing most trigrams with a mistyped word whose edit distance is computed. */
	typoCandidates: 300,
	/** Query words checked for typos (the first ones that match nothing). */
	typoMaxWords: 8,
	/**
	 * "Most of the words" ranking: newest matches read per word and table. A word in more entries is common: its
	 * weight comes from its density among them, and older entries miss only that small weight (measured at 500 MB:
	 * 20,000 read 4× the rows for the same golden set).
	 */
	wordRankScan: 5_000,
	/** "Most of the words" ranking: best-scored entries looked up and ranked by session (2,000 read 4× the rows for the same first sessions). */
	wordRankTop: 500,
	/** Default number of sessions a search returns. */
	searchLimit: 10,
	/** Maximum number of sessions a search may return. */
	searchMaxLimit: 200,
	/** Other phrasings of a query searched with it (an agent's paraphrases or translations); more are ignored. */
	maxQueryVariants: 3,
	/** Matches of a search inside one session returned per page unless told, and at most. */
	inSessionLimit: 20,
	inSessionMaxLimit: 200,
	/** Characters of context in a snippet. */
	snippetChars: 220,
	/** Branches leaving the branch read that `read(ref, { structure: true })` lists at most, for the viewer to draw. */
	structureMaxBranches: 200,
	/** Characters of the first words of each such branch. */
	structurePreviewChars: 140,
	/** Markers put around a match in snippets. */
	markOpen: "«",
	markClose: "»",
	/**
	 * Which sessions a search covers unless told: "all" includes omp sub-agent transcripts (what was found there
	 * may be found nowhere else), "top" leaves them out.
	 */
	searchScope: "all" satisfies Scope,
	/** Default number of sessions listed by browse. */
	browseLimit: 20,
	/** Maximum number of sessions browse may list. */
	browseMaxLimit: 1_000,
	/** Which sessions browse lists unless told: "top" (a list of recent work is not flooded by sub-agents), or "all". */
	browseScope: "top" satisfies Scope,
	/** Messages on each side of the centre entry when reading around an entry. */
	readWindow: 5,
	/** Maximum messages on each side when reading around an entry. */
	readMaxWindow: 20,
	/** Characters of a session's first prompt kept as its preview. */
	previewChars: 200,
	/** zlib level of the archive's copies: 1 compresses the benchmark's JSONL to ~31% at ~90 MB/s a core, 6 to ~27% at ~28 MB/s. */
	archiveGzipLevel: 1,
	/** Bytes of a file's head fingerprinted to detect a rewrite. */
	headFingerprintBytes: 1024,
	/** A snapshot index (held whole in memory: a browser's) stops growing past this size; sync reports it. An index opened in place has no ceiling. */
	maxIndexBytes: 3_000_000_000,
	/** A snapshot larger than this is not loaded: the in-memory engine cannot hold it (~3.7 GB). */
	maxLoadBytes: 3_700_000_000,
	/** SQLite's page cache per open index, in KiB: what a process holds of an index opened in place. */
	pageCacheKiB: 16_000,
	/** Indexing work committed per write transaction: other processes read and write between batches. */
	syncBatchMs: 500,
	/**
	 * A sync that read this much merges the full-text indexes into one segment each when it ends (a first index,
	 * a large catch-up): its many batches leave segments every query visits (sync/indexer.ts, optimizeFullText).
	 */
	ftsOptimizeBytes: 16 * 1024 * 1024,
	/**
	 * Leaf pages that merge writes per write transaction (FTS5's `merge` with a negative count: an optimize done a
	 * step at a time). In one transaction the merge after a first index of 500 MB held the file for 2.4 s (its
	 * entries_fts), every reader shut out; in steps, the longest held it 0.28 s (median 0.11 s, 25 steps, the same
	 * single segments in 3.1 s against 3.5 s).
	 */
	ftsMergePages: 1000,
	/**
	 * The same where one writer holds the index alone (the viewer's index in OPFS, held by one tab): nobody waits
	 * between batches, and each commit flushes, which costs OPFS far more than a file on disk (measured at 50 MB:
	 * 17.5 s with 0.5 s batches, 8.5 s with 10 s).
	 */
	soleWriterBatchMs: 10_000,
	/** How long a writer waits for another writer's batch before giving up (index-busy). */
	writeWaitMs: 60_000,
	/** Bodies shorter than this (in UTF-16 units) are stored as they are; longer ones deflated (deflate would not pay below). */
	compressFromChars: 200,
	/** Skipped files a sync report lists by name (all are counted). */
	skippedFilesListed: 50,
	/** Longest query accepted, in characters. */
	maxQueryChars: 2_000,
	/** Most words and phrases one query may hold (each is a term FTS5 must look up and rank). */
	maxQueryTerms: 64,
	/**
	 * A search waits for the sync before it when that sync reads at most this many bytes (a few new or grown
	 * sessions: well under half a second); a longer one (a first index, a week away) goes on in the background
	 * and the search answers at once from what is indexed, saying how far indexing has got.
	 */
	syncWaitBytes: 4 * 1024 * 1024,
	/** Any tool reply is cut to this many characters of JSON (and says `contentTruncated: true`). */
	replyMaxChars: 50_000,
	/** Sessions one tool call may ask for: a reply's budget holds about this many. */
	replyMaxSessions: 50,
	/** Characters of one message inside a discovery or scroll window. */
	replyMessageChars: 1_500,
	/** Messages on each side of the hit in the hydrated top result. */
	hitWindow: 5,
	/** First and last messages of the session shown as bookends. */
	bookends: 3,
	/** A large session read whole shows its first this-many and last `readTail` messages only. */
	readHead: 20,
	readTail: 10,
	/** Messages of one page of a session read by offset (the MCP face's paging), and the most one page may ask for. */
	readPage: 20,
	readPageMax: 50,
	/** Sessions of the MCP server's working directory whose file changed this recently are taken to be the calling session and left out (agentsview leaves out 10 minutes; an agent writes its session file at every message, so a few minutes suffice). */
	callingSessionMs: 5 * 60_000,
	/** Characters of a session's latest summary in a store reply. */
	summaryChars: 400,
	/** Characters of a title made from a first prompt. */
	titleChars: 80,
} as const;

/** 32 MiB, 50,000: a size or count as the messages that quote a limit write it. */
export function mebibytes(bytes: number): string {
	return `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`;
}

export function thousands(n: number): string {
	// Not toLocaleString: its first call loads ICU's locale data, 20–60 ms of a start-up (the MCP server's and the extension's tool descriptions quote limits this way).
	const [whole, fraction] = String(n).split(".");
	return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction === undefined ? "" : `.${fraction}`}`;
}
