/** Figures about an index: what it holds and what it costs. */

import type { SkipReason } from "../parse/source.js";
import type { Database } from "./engine.js";
import { queryOne } from "./engine.js";

export interface IndexStats {
	sessions: number;
	entries: number;
	/** Entries with searchable text. */
	indexedEntries: number;
	vocabulary: number;
	/** Size of the index database. */
	indexBytes: number;
	/** Bytes of the session files indexed. */
	corpusBytes: number;
	/** Characters of indexed text. */
	textChars: number;
	/** Bytes the indexed text takes in the index (stored once, long bodies deflated). */
	storedTextBytes: number;
	malformedLines: number;
	/** Files skipped by the last sync, by reason. */
	skipped: Record<SkipReason, number>;
	lastSync?: string;
	generation: number;
	/** What the indexed sessions used: tokens, and the cost they recorded or that was estimated (`estimatedUsd` of it). */
	usage: { tokens: number; costUsd: number; estimatedUsd: number; unpricedMessages: number };
}

export function indexBytes(db: Database): number {
	const pages = queryOne<{ page_count: number }>(db, "PRAGMA page_count")?.page_count ?? 0;
	const size = queryOne<{ page_size: number }>(db, "PRAGMA page_size")?.page_size ?? 4096;
	return pages * size;
}

export function metaValue(db: Database, key: string): string | undefined {
	return queryOne<{ value: string }>(db, "SELECT value FROM meta WHERE key = ?", [key])?.value;
}

export function setMeta(db: Database, key: string, value: string): void {
	db.run("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value]);
}

/** What an index holds at a glance, from the sessions table and meta only (cheap over an index read by ranges). */
export interface IndexOverview {
	sessions: number;
	messages: number;
	lastSync?: string;
}

export function indexOverview(db: Database): IndexOverview {
	const s = queryOne<{ n: number; messages: number }>(
		db,
		"SELECT count(session_id) AS n, coalesce(sum(message_count), 0) AS messages FROM sessions",
	);
	return { sessions: s?.n ?? 0, messages: s?.messages ?? 0, lastSync: lastSyncNote(db).at };
}

function lastSyncNote(db: Database): { at?: string; skipped?: Record<SkipReason, number> } {
	const lastSync = metaValue(db, "last_sync");
	if (!lastSync) return {};
	try {
		return JSON.parse(lastSync) as { at?: string; skipped?: Record<SkipReason, number> };
	} catch {
		return {}; // an unreadable note about the last sync is not worth failing stats for
	}
}

export function indexStats(db: Database): IndexStats {
	const s = queryOne<{ n: number; bytes: number; malformed: number }>(
		db,
		"SELECT count(session_id) AS n, coalesce(sum(size), 0) AS bytes, coalesce(sum(malformed), 0) AS malformed FROM sessions",
	);
	const e = queryOne<{ n: number; indexed: number; chars: number; stored: number }>(
		db,
		"SELECT count(*) AS n, count(body) AS indexed, coalesce(sum(chars), 0) AS chars, coalesce(sum(length(CAST(body AS BLOB))), 0) AS stored FROM entries",
	);
	const note = lastSyncNote(db);
	const skipped: Record<SkipReason, number> = { oversized: 0, "tmp-folder": 0, unreadable: 0, "index-full": 0, ...note.skipped };
	const lastSyncAt = note.at;
	return {
		sessions: s?.n ?? 0,
		entries: e?.n ?? 0,
		indexedEntries: e?.indexed ?? 0,
		vocabulary: queryOne<{ n: number }>(db, "SELECT count(*) AS n FROM vocab")?.n ?? 0,
		indexBytes: indexBytes(db),
		corpusBytes: s?.bytes ?? 0,
		textChars: e?.chars ?? 0,
		storedTextBytes: e?.stored ?? 0,
		malformedLines: s?.malformed ?? 0,
		skipped,
		lastSync: lastSyncAt,
		generation: Number(metaValue(db, "generation") ?? 0),
		usage: usageSums(db),
	};
}

function usageSums(db: Database): IndexStats["usage"] {
	const u = queryOne<IndexStats["usage"]>(
		db,
		`SELECT coalesce(sum(input + output + cache_read + cache_write), 0) AS tokens, coalesce(sum(cost), 0) AS costUsd,
		 coalesce(sum(estimated), 0) AS estimatedUsd, coalesce(sum(unpriced), 0) AS unpricedMessages FROM usage_hours`,
	);
	const round = (x: number) => Math.round(x * 1e6) / 1e6;
	return {
		tokens: u?.tokens ?? 0,
		costUsd: round(u?.costUsd ?? 0),
		estimatedUsd: round(u?.estimatedUsd ?? 0),
		unpricedMessages: u?.unpricedMessages ?? 0,
	};
}
