/**
 * An OpenClaw agent's database (`agents/<agent>/agent/openclaw-agent.sqlite`, WAL mode, 2026.9), read while OpenClaw
 * may be writing it, on snapshots (src/node/snapshot-db.ts). Each session window (`session_windows`: a conversation
 * until a reset, a rollover or a compaction starts another) is one session; its transcript is the rows of
 * `transcript_events`, each one of Pi's session lines (`event_json`, or zstd in `event_zstd` when large), rendered as
 * the JSONL file OpenClaw wrote before (`sessions/<id>.jsonl`), with the session's display name or label in its header.
 */

import { decompress } from "fzstd";
import { LookbackError } from "../../../core/index.js";
import type { NodeEngine } from "../../../node/engine.js";
import { columnsOf, num, parseJson, rows, SnapshotDb, str } from "../../../node/snapshot-db.js";

/** A session as the walk lists it: what decides whether it changed, and the session that spawned it. */
export interface OpenclawSessionStamp {
	id: string;
	/** The session id of the session its session key was spawned by (a sub-agent's), when that session is known. */
	parentId: string | null;
	updated: number;
	events: number;
}

const decoder = new TextDecoder();

function eventLine(row: Record<string, unknown>): string | undefined {
	if (typeof row.event_json === "string") return row.event_json;
	if (row.event_zstd instanceof Uint8Array) {
		try {
			return decoder.decode(decompress(row.event_zstd));
		} catch {
			return undefined;
		}
	}
	return undefined;
}

export class OpenclawDb extends SnapshotDb {
	static open(path: string): Promise<OpenclawDb> {
		return SnapshotDb.openAs("openclaw", path, (at: string, engine: NodeEngine) => new OpenclawDb(at, engine, "OpenClaw's database"));
	}

	/** Every session window, from the newest commit (not read again while the database shows the same last commit). */
	sessions(): OpenclawSessionStamp[] {
		return this.listing((db) => {
			const cols = columnsOf(db, "session_windows");
			if (!cols.has("session_id"))
				throw new LookbackError("io", `${this.path} has no session_windows table: not an OpenClaw agent database`);
			const pick = (name: string) => (cols.has(name) ? `w.${name}` : "NULL");
			const counts = new Map<string, { n: number; last: number }>();
			for (const r of rows(db, "SELECT session_id AS s, count(*) AS n, max(created_at) AS last FROM transcript_events GROUP BY session_id"))
				counts.set(String(r.s), { n: Number(r.n), last: Number(r.last) || 0 });
			// A sub-agent's key names the key that spawned it; that key's session is its current one.
			const current = new Map(
				rows(db, "SELECT session_key AS k, current_session_id AS s FROM session_nodes").map((r) => [String(r.k), str(r.s)]),
			);
			return rows(
				db,
				`SELECT w.session_id AS id, w.updated_at AS updated, ${pick("spawned_by")} AS spawner, ${pick("parent_session_key")} AS parent FROM session_windows w`,
			).map((r) => {
				const c = counts.get(String(r.id));
				const spawner = str(r.spawner) ?? str(r.parent);
				return {
					id: String(r.id),
					parentId: (spawner && current.get(spawner)) || null,
					updated: Math.max(num(r.updated) ?? 0, c?.last ?? 0),
					events: c?.n ?? 0,
				};
			});
		});
	}

	/** One session's transcript as JSONL, from the snapshot of the last walk (or a newer one); undefined when it is gone. */
	transcript(id: string): string | undefined {
		return this.read((db) => {
			const window = rows(db, "SELECT session_key FROM session_windows WHERE session_id = ?", [id])[0];
			if (!window) return undefined;
			const node = rows(db, "SELECT display_name, label FROM session_nodes WHERE session_key = ?", [String(window.session_key)])[0];
			const title = str(node?.display_name) ?? str(node?.label);
			const lines: string[] = [];
			for (const r of rows(db, "SELECT seq, event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq", [id])) {
				const line = eventLine(r) ?? "";
				const event = title && lines.length === 0 ? parseJson(line) : undefined;
				// The header carries the name OpenClaw shows for the session (Pi's header `title`).
				lines.push(event?.type === "session" ? JSON.stringify({ ...event, title }) : line);
			}
			return `${lines.join("\n")}\n`;
		}, false);
	}
}
