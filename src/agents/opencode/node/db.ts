/**
 * OpenCode's database (`opencode.db`, WAL mode), read while OpenCode may be writing it, on snapshots
 * (src/node/snapshot-db.ts). A session is rendered as OpenCode's own export (`opencode export`:
 * `{info, messages: [{info, parts}]}`), which ../format.ts reads.
 */

import { LookbackError } from "../../../core/index.js";
import type { NodeEngine } from "../../../node/engine.js";
import { columnsOf, num, parseJson, type Row, rows, SnapshotDb, str } from "../../../node/snapshot-db.js";
import { forkSources, opencodeForkOf } from "./forks.js";
import { boundedPart, type OpencodeDocument, type OpencodeMessage } from "./render.js";

/** A session as the walk lists it: what decides whether it changed, and how it is linked. */
export interface OpencodeSessionStamp {
	id: string;
	parentId: string | null;
	directory: string | null;
	/** `time_updated` (ms), or the newest message's `time_created` when that is later. */
	updated: number;
	messages: number;
}

/** The session row as OpenCode's `Session.Info` (what `opencode export` prints as `info`). */
function sessionInfo(row: Row): Record<string, unknown> {
	const json = (v: unknown) => parseJson(v);
	return {
		id: row.id,
		slug: str(row.slug),
		projectID: str(row.project_id),
		directory: str(row.directory),
		...(str(row.parent_id) ? { parentID: row.parent_id } : {}),
		title: str(row.title),
		version: str(row.version),
		...(json(row.revert) ? { revert: json(row.revert) } : {}),
		time: {
			created: num(row.time_created),
			updated: num(row.time_updated),
			...(num(row.time_compacting) ? { compacting: row.time_compacting } : {}),
			...(num(row.time_archived) ? { archived: row.time_archived } : {}),
		},
	};
}

/** One OpenCode database opened through the engine, read on snapshots. */
export class OpencodeDb extends SnapshotDb {
	/** Each fork's source session, as the last listing found them (forks.ts). */
	private forkSources = new Map<string, string>();

	/** The database at `path`, one per process (its folder is mounted in the engine once). */
	static open(path: string): Promise<OpencodeDb> {
		return SnapshotDb.openAs("opencode", path, (at: string, engine: NodeEngine) => new OpencodeDb(at, engine, "OpenCode's database"));
	}

	/**
	 * Every session, from the newest commit: its stamp for the sync and its links. A database whose last commit is
	 * the one listed before (the same WAL frames, or the same main file with none) is not read again.
	 * Throws when the file is no OpenCode database.
	 */
	sessions(): OpencodeSessionStamp[] {
		return this.listing((db) => {
			const cols = columnsOf(db, "session");
			if (!cols.has("id")) throw new LookbackError("io", `${this.path} has no session table: not an OpenCode database`);
			const pick = (name: string) => (cols.has(name) ? name : "NULL");
			const counts = new Map<string, { n: number; first: number; last: number }>();
			if (columnsOf(db, "message").has("session_id"))
				for (const r of rows(
					db,
					"SELECT session_id AS s, count(*) AS n, min(time_created) AS first, max(time_created) AS last FROM message GROUP BY session_id",
				))
					counts.set(String(r.s), { n: Number(r.n), first: Number(r.first), last: Number(r.last) || 0 });
			const listed = rows(
				db,
				`SELECT id, ${pick("parent_id")} AS parent, ${pick("directory")} AS dir, ${pick("time_updated")} AS updated, ${pick("time_created")} AS created FROM session`,
			);
			this.forkSources = forkSources(
				listed.map((r) => ({ id: String(r.id), first: counts.get(String(r.id))?.first, created: num(r.created) ?? 0 })),
			);
			return listed.map((r) => {
				const c = counts.get(String(r.id));
				return {
					id: String(r.id),
					parentId: str(r.parent) ?? null,
					directory: str(r.dir) ?? null,
					updated: Math.max(num(r.updated) ?? 0, c?.last ?? 0),
					messages: c?.n ?? 0,
				};
			});
		});
	}

	/** One session as OpenCode exports it, from the snapshot of the last walk (or a newer one); undefined when it is gone. */
	session(id: string): OpencodeDocument | undefined {
		return this.read((db) => {
			const row = rows(db, "SELECT * FROM session WHERE id = ?", [id])[0];
			if (!row) return undefined;
			const partCols = columnsOf(db, "part");
			const messages: OpencodeMessage[] = [];
			const byId = new Map<string, OpencodeMessage>();
			for (const m of rows(db, "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", [id])) {
				const data = parseJson(m.data);
				const message: OpencodeMessage = { info: data ? { id: m.id, sessionID: id, ...data } : null, parts: [] };
				messages.push(message);
				byId.set(String(m.id), message);
			}
			const parts = partCols.has("session_id")
				? rows(db, "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", [id])
				: rows(
						db,
						"SELECT p.id, p.message_id, p.data FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = ? ORDER BY p.message_id, p.id",
						[id],
					);
			for (const p of parts) {
				const message = byId.get(String(p.message_id));
				if (!message) continue;
				const data = parseJson(p.data);
				message.parts.push(data ? boundedPart({ id: p.id, sessionID: id, messageID: p.message_id, ...data }) : null);
			}
			const fork = opencodeForkOf((sql, params) => rows(db, sql, params), id, this.forkSources);
			return { info: sessionInfo(row), messages, ...(fork ? { forkOf: fork } : {}) };
		}, false);
	}
}
