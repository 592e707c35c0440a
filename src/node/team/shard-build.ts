/**
 * The shard a machine publishes, kept on this machine between publishes (`<index dir>/publish/<name>-<place>/shard.db`):
 * a lookback index of the same sessions, synced from the same source with every text redacted before it is stored or
 * indexed (the sync's `redact`), so that no secret is in its rows, its words or its full-text index. The first
 * publish, and any that has rewritten much since, lays it out read-optimised (read-snapshot.ts); the others sync it in
 * place, so that SQLite rewrites only the pages a change touches and a publish uploads those (publish.ts).
 *
 * Long messages: the index keeps a long message's head and tail and reads the rest from the session file's line
 * when asked (a snippet in the middle, `read --full`, an export). A shard has no session files, so it carries each
 * cut entry's line, redacted (every string of its JSON) and deflated, in `shard_lines`; a remote reader answers
 * those reads from it (remote-worker.ts).
 */

import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import {
	type Database,
	LookbackIndex,
	loadRedaction,
	openAt,
	redactText,
	redactValue,
	type SessionArchive,
	type SyncReport,
} from "../../core/index.js";
import { queryAll } from "../../core/store/engine.js";
import { STAMP_TABLES } from "../../core/store/schema.js";
import { loadEngine } from "../engine.js";
import { enginePathOf, fileStorage } from "../file-storage.js";
import type { NodeIndex } from "../open.js";
import { makeReadSnapshot } from "../read-snapshot.js";
import type { SnapshotReads } from "../snapshot-layout.js";

/** The lines of cut entries, redacted, for reads that need a long message whole (see above). */
const SHARD_LINES =
	"CREATE TABLE IF NOT EXISTS shard_lines(path TEXT NOT NULL, off INTEGER NOT NULL, line BLOB NOT NULL, PRIMARY KEY(path, off)) WITHOUT ROWID";

/**
 * The archive as the shard's sync sees it: read (a gone session is published from its copy), never written — the
 * live index's own syncs keep it.
 */
function readOnlyArchive(archive: SessionArchive | undefined): SessionArchive | undefined {
	if (!archive) return undefined;
	return {
		describe: () => archive.describe(),
		keeping: archive.keeping,
		state: () => archive.state(),
		begin: async () => true,
		keep: async () => ({ how: "unchanged", bytesRead: 0, bytesWritten: 0 }),
		markGone: () => undefined,
		commit: async () => undefined,
		release: async () => undefined,
		read: (path, start, end) => archive.read(path, start, end),
	};
}

/** One line of a session file redacted: every string of its JSON (ids kept), or the text itself when it is not JSON. */
function redactedLine(bytes: Uint8Array): string {
	return new TextDecoder()
		.decode(bytes)
		.split("\n")
		.map((line) => {
			if (line.trim() === "") return line;
			try {
				return JSON.stringify(redactValue(JSON.parse(line)));
			} catch {
				return redactText(line);
			}
		})
		.join("\n");
}

/** Redact, in place, the texts the sync writes outside an entry's text: names, folders, problems, tool names, edited paths. */
function redactColumns(db: Database): number {
	let changed = 0;
	const redactRows = (table: string, key: string[], columns: string[]) => {
		const rows = queryAll<Record<string, string | number | null>>(db, `SELECT ${[...key, ...columns].join(", ")} FROM ${table}`);
		for (const row of rows) {
			const sets: string[] = [];
			const values: (string | number | null)[] = [];
			for (const column of columns) {
				const value = row[column];
				if (typeof value !== "string") continue;
				const redacted = redactText(value);
				if (redacted === value) continue;
				sets.push(`${column} = ?`);
				values.push(redacted);
			}
			if (sets.length === 0) continue;
			changed++;
			db.run(`UPDATE ${table} SET ${sets.join(", ")} WHERE ${key.map((k) => `${k} = ?`).join(" AND ")}`, [
				...values,
				...key.map((k) => row[k]),
			]);
		}
	};
	redactRows("sessions", ["id"], ["name", "cwd", "first_prompt", "problem", "parent_id"]);
	redactRows("touched_files", ["session", "path"], ["path"]);
	redactRows("tool_calls", ["entry", "tool"], ["tool"]);
	redactRows("session_tools", ["session", "hour", "tool"], ["tool"]);
	return changed;
}

/** Bring `shard_lines` in step with the cut entries: a line for each new one (read, redacted, deflated), none for one gone. */
function keepLines(db: Database, read: NonNullable<NodeIndex["files"]["readRange"]>): { added: number; removed: number } {
	db.run(SHARD_LINES);
	const have = new Set(queryAll<{ path: string; off: number }>(db, "SELECT path, off FROM shard_lines").map((r) => `${r.off} ${r.path}`));
	const want = queryAll<{ path: string; off: number; len: number }>(
		db,
		"SELECT s.path, e.off, e.len FROM entries e JOIN sessions s ON s.id = e.session WHERE e.deep = 1 AND e.off IS NOT NULL AND e.len IS NOT NULL",
	);
	let added = 0;
	const insert = db.prepare("INSERT OR REPLACE INTO shard_lines(path, off, line) VALUES (?,?,?)");
	try {
		for (const { path, off, len } of want) {
			const key = `${off} ${path}`;
			if (have.delete(key)) continue;
			const bytes = read(path, off, off + len);
			if (!bytes) continue;
			insert.run([path, off, deflateRawSync(new TextEncoder().encode(redactedLine(bytes)), { level: 6 })]);
			added++;
		}
	} finally {
		insert.free();
	}
	for (const key of have) {
		const cut = key.indexOf(" ");
		db.run("DELETE FROM shard_lines WHERE path = ? AND off = ?", [key.slice(cut + 1), Number(key.slice(0, cut))]);
	}
	return { added, removed: have.size };
}

export interface ShardUpdate {
	path: string;
	sync: SyncReport;
	/** Laid out anew (every page new) rather than synced in place. */
	laidOut: boolean;
	/** What to read first, when laid out now (else the publish keeps the last). */
	reads?: SnapshotReads;
	sessions: number;
}

/** Sync the shard (`dir/shard.db`, made when missing) from this machine's sessions, redacted; lay it out anew when asked. */
export async function updateShard(opened: NodeIndex, dir: string, layOut: boolean): Promise<ShardUpdate> {
	mkdirSync(dir, { recursive: true });
	await loadRedaction();
	const path = join(dir, "shard.db");
	const fresh = !existsSync(path);
	const engine = await loadEngine();
	const index = await LookbackIndex.open({ sql: engine, storage: fileStorage(path) });
	let sync: SyncReport;
	try {
		sync = await index.sync({ ...opened.source, archive: readOnlyArchive(opened.source.archive) }, { redact: (text) => redactText(text) });
	} finally {
		index.close();
	}
	const db = openAt(engine, enginePathOf(engine, path));
	let sessions = 0;
	try {
		db.run("BEGIN IMMEDIATE");
		try {
			redactColumns(db);
			keepLines(db, opened.files.readRange ?? (() => undefined));
			db.run("COMMIT");
		} catch (error) {
			db.run("ROLLBACK");
			throw error;
		}
		sessions = queryAll<{ n: number }>(db, "SELECT count(*) AS n FROM sessions")[0]?.n ?? 0;
	} finally {
		db.close();
	}
	if (!fresh && !layOut) return { path, sync, laidOut: false, sessions };
	const scratch = join(dir, "layout");
	rmSync(scratch, { recursive: true, force: true });
	mkdirSync(scratch);
	const laid = join(scratch, "shard.db");
	const reads = await makeReadSnapshot(path, laid);
	// The layout copies tables and indexes, not triggers: the stamps' triggers again, so that the next sync in place finds what changed.
	const copy = openAt(engine, enginePathOf(engine, laid));
	try {
		copy.run(STAMP_TABLES);
	} finally {
		copy.close();
	}
	renameSync(laid, path);
	rmSync(scratch, { recursive: true, force: true });
	return { path, sync, laidOut: true, reads, sessions };
}
