/**
 * Writes what each model answer used (tokens, cost, model, tool calls, edited files) beside its entry, prices tokens
 * the session did not price, counts a message copied into another file once, and keeps the per-session sums the
 * reports read (`usage_hours`, `session_tools`; see schema.ts). Called by the session writer for every entry it adds.
 */

import type { Statement } from "sql.js";
import { answerUsage, toolError } from "../parse/entry-usage.js";
import type { SessionEntry } from "../parse/session-format.js";
import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { sessionRank } from "../store/session-rank.js";
import { metaValue, setMeta } from "../store/stats.js";
import { estimateCost, PRICE_SOURCE } from "../usage/prices.js";
import { keyHash } from "./hash.js";

/** The hour (since the epoch) a counted answer falls in: its own time, else its session's. */
const HOUR = "CAST(coalesce(u.ts, s.started, s.modified, 0) / 3600000 AS INTEGER)";

/** The sums of one session's counted messages, per hour and model. */
const HOURS = `INSERT INTO usage_hours(session, hour, model, messages, input, output, cache_read, cache_write, cost, estimated, unpriced, tools)
 SELECT u.session, ${HOUR} AS h, u.model, sum(u.message), sum(u.input), sum(u.output),
  sum(u.cache_read), sum(u.cache_write), coalesce(sum(u.cost), 0), coalesce(sum(CASE WHEN u.estimated = 1 THEN u.cost END), 0),
  sum(u.cost IS NULL AND u.input + u.output + u.cache_read + u.cache_write > 0), sum(u.tools)
 FROM usage u JOIN sessions s ON s.id = u.session WHERE u.dup = 0`;

/**
 * The tool calls of one session's counted answers, per hour and tool: in the hour of the answer that made them (an
 * error is kept on that answer), the hour `usage_hours` counts the answer's `tools` in, so that the dashboard's
 * tool counts and `lookback usage`'s `toolCalls` are cut by the same time bounds.
 */
const TOOLS = `INSERT INTO session_tools(session, hour, tool, calls, errors)
 SELECT u.session, ${HOUR} AS h, t.tool, sum(t.calls), sum(t.errors)
 FROM tool_calls t JOIN usage u ON u.entry = t.entry JOIN sessions s ON s.id = u.session WHERE u.dup = 0`;

export class UsageWriter {
	private readonly insertUsage: Statement;
	private readonly addCall: Statement;
	private readonly addFile: Statement;
	private readonly seenKey: Statement;
	/**
	 * Per session, its rows given a key indexed before (a copy, or a report read twice): written as not counted,
	 * settled once the session's start is known (`refresh`).
	 */
	private readonly collided = new Map<number, number[]>();
	private readonly models = new Map<string, number>();
	/** Per session: its last model answer (a tool's error counts against it) and its last model (an answer naming none has it). */
	private readonly last = new Map<number, { answer?: number; model?: number }>();

	constructor(private readonly db: Database) {
		this.insertUsage = db.prepare(
			"INSERT INTO usage(entry, session, ts, model, message, input, output, cache_read, cache_write, cache_write_1h, tier, cost, estimated, tools, key, dup) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		);
		this.addCall = db.prepare(
			"INSERT INTO tool_calls(entry, tool, calls, errors) VALUES (?,?,?,?) ON CONFLICT(entry, tool) DO UPDATE SET calls = calls + excluded.calls, errors = errors + excluded.errors",
		);
		this.seenKey = db.prepare("SELECT 1 FROM usage WHERE key = ? LIMIT 1");
		this.addFile = db.prepare(
			"INSERT INTO touched_files(session, path, edits) VALUES (?,?,1) ON CONFLICT(session, path) DO UPDATE SET edits = edits + 1",
		);
	}

	private modelId(provider: string | undefined, model: string): number {
		const key = `${provider ?? ""}\u0000${model}`;
		let id = this.models.get(key);
		if (id === undefined) {
			this.db.run("INSERT OR IGNORE INTO models(provider, model) VALUES (?, ?)", [provider ?? "", model]);
			id = queryOne<{ id: number }>(this.db, "SELECT id FROM models WHERE provider = ? AND model = ?", [provider ?? "", model])?.id ?? 0;
			this.models.set(key, id);
		}
		return id;
	}

	private lastOf(session: number): { answer?: number; model?: number } {
		let last = this.last.get(session);
		if (!last) {
			const row = queryOne<{ answer: number | null; model: number | null }>(
				this.db,
				// Plain `?`s: better-sqlite3 (the benchmark's native baseline) takes a numbered `?1` for a named parameter.
				"SELECT (SELECT max(entry) FROM usage WHERE session = ? AND message = 1) AS answer, (SELECT model FROM usage WHERE session = ? AND model != 0 ORDER BY entry DESC LIMIT 1) AS model",
				[session, session],
			);
			last = { answer: row?.answer ?? undefined, model: row?.model ?? undefined };
			this.last.set(session, last);
		}
		return last;
	}

	/** An entry just written as row `rowid` of `session`: its usage and tool calls, or the error its tool result reported. */
	add(session: number, rowid: number, entry: SessionEntry, ts: number | null): void {
		const error = toolError(entry);
		if (error !== undefined) {
			const answer = this.lastOf(session).answer;
			if (answer !== undefined) this.addCall.run([answer, error, 0, 1]);
			return;
		}
		const u = answerUsage(entry);
		if (!u) return;
		const last = this.lastOf(session);
		const model = u.model ? this.modelId(u.provider, u.model) : (last.model ?? 0);
		last.model = model || last.model;
		let cost = u.cost;
		let estimated = 0;
		if (cost === undefined && u.tokens && u.tokens.input + u.tokens.output + u.tokens.cacheRead + u.tokens.cacheWrite > 0) {
			const named = u.model ? { provider: u.provider, model: u.model } : this.modelName(model);
			cost = estimateCost(named?.provider, named?.model, u.tokens);
			estimated = cost === undefined ? 0 : 1;
		}
		const t = u.tokens;
		const key = keyHash(entry.usageKey ?? `${entry.id}@${ts ?? ""}`);
		this.seenKey.bind([key]);
		const seen = this.seenKey.step();
		this.seenKey.reset();
		if (seen) this.collided.set(session, [...(this.collided.get(session) ?? []), rowid]);
		let tools = 0;
		for (const n of u.calls.values()) tools += n;
		this.insertUsage.run([
			rowid,
			session,
			ts,
			model,
			u.apart ? 0 : 1,
			t?.input ?? 0,
			t?.output ?? 0,
			t?.cacheRead ?? 0,
			t?.cacheWrite ?? 0,
			t?.cacheWrite1h ?? 0,
			t?.tier ?? null,
			cost ?? null,
			estimated,
			tools,
			key,
			seen ? 1 : 0,
		]);
		if (!u.apart) last.answer = rowid;
		for (const [tool, n] of u.calls) this.addCall.run([rowid, tool, n, 0]);
		for (const path of u.files) this.addFile.run([session, path]);
	}

	private modelName(id: number): { provider: string; model: string } | undefined {
		return id ? queryOne<{ provider: string; model: string }>(this.db, "SELECT provider, model FROM models WHERE id = ?", [id]) : undefined;
	}

	/**
	 * Which copy of a message counts: the one in the session that started first (then the first path), and in one
	 * session the first. A fork copies its parent's messages with their ids and times, so the parent keeps them and
	 * the fork adds its own; a usage report read twice (Codex repeats its last on a resumed run) counts once. Each
	 * key has one counted row, so a new row is weighed against that one alone (`usage_key` finds it): the work of a
	 * sync grows with the rows it writes, not with how many sessions hold the same message.
	 */
	private settle(rowid: number, resum: Set<number>): void {
		const counted = queryOne<{ entry: number; session: number; first: number }>(
			this.db,
			`SELECT c.entry, c.session, (${sessionRank("sr")}, r.entry) < (${sessionRank("sc")}, c.entry) AS first
			 FROM usage r CROSS JOIN sessions sr ON sr.id = r.session
			 CROSS JOIN usage c ON c.key = r.key AND c.dup = 0 CROSS JOIN sessions sc ON sc.id = c.session
			 WHERE r.entry = ? AND c.entry != r.entry LIMIT 1`,
			[rowid],
		);
		if (counted && !counted.first) return;
		this.db.run("UPDATE usage SET dup = 0 WHERE entry = ?", [rowid]);
		if (!counted) return;
		this.db.run("UPDATE usage SET dup = 1 WHERE entry = ?", [counted.entry]);
		resum.add(counted.session);
	}

	private sums(session: number): void {
		this.db.run("DELETE FROM usage_hours WHERE session = ?", [session]);
		this.db.run(`${HOURS} AND u.session = ? GROUP BY h, u.model`, [session]);
		this.db.run("DELETE FROM session_tools WHERE session = ?", [session]);
		this.db.run(`${TOOLS} AND u.session = ? GROUP BY h, t.tool`, [session]);
	}

	/** After a session's entries changed (its `started` known): which of its new messages count, and the sums that changed. */
	refresh(session: number): void {
		const resum = new Set([session]);
		for (const rowid of this.collided.get(session) ?? []) this.settle(rowid, resum);
		this.collided.delete(session);
		for (const s of resum) this.sums(s);
	}

	/**
	 * Two rows of one message traded their places in their sessions (copies.ts): each line's usage stays with its own
	 * session's row, so the sums are unchanged.
	 */
	traded(a: number, b: number): void {
		for (const table of ["usage", "tool_calls"]) {
			this.db.run(`UPDATE ${table} SET entry = ? WHERE entry = ?`, [-a, a]);
			this.db.run(`UPDATE ${table} SET entry = ? WHERE entry = ?`, [a, b]);
			this.db.run(`UPDATE ${table} SET entry = ? WHERE entry = ?`, [b, -a]);
		}
		this.last.clear();
		for (const [session, rows] of this.collided)
			this.collided.set(
				session,
				rows.map((r) => (r === a ? b : r === b ? a : r)),
			);
	}

	/** Before a session's rows go: what it used, and for each message it counted, the copy elsewhere that counts in its stead. */
	purge(session: number): void {
		const keys = queryAll<{ key: number }>(
			this.db,
			"SELECT u.key FROM usage u WHERE u.session = ? AND u.dup = 0 AND EXISTS (SELECT 1 FROM usage o WHERE o.key = u.key AND o.session != u.session)",
			[session],
		).map((r) => r.key);
		this.db.run("DELETE FROM tool_calls WHERE entry IN (SELECT entry FROM usage WHERE session = ?)", [session]);
		for (const table of ["usage", "usage_hours", "session_tools", "touched_files"])
			this.db.run(`DELETE FROM ${table} WHERE session = ?`, [session]);
		this.last.delete(session);
		this.collided.delete(session);
		const resum = new Set<number>();
		for (const key of keys) {
			const next = queryOne<{ entry: number; session: number }>(
				this.db,
				`SELECT u.entry, u.session FROM usage u CROSS JOIN sessions s ON s.id = u.session WHERE u.key = ?
				 ORDER BY ${sessionRank("s")}, u.entry LIMIT 1`,
				[key],
			);
			if (!next) continue;
			this.db.run("UPDATE usage SET dup = 0 WHERE entry = ?", [next.entry]);
			resum.add(next.session);
		}
		for (const s of resum) this.sums(s);
	}

	finish(): void {
		for (const stmt of [this.insertUsage, this.addCall, this.addFile, this.seenKey]) stmt.free();
	}
}

/** Whether the estimates in the index were made from other prices than this lookback carries. */
export function pricesStale(db: Database): boolean {
	return metaValue(db, "prices") !== PRICE_SOURCE;
}

/** Price again every message priced by the table, and every one it had no price for; then every session's sums. */
export function reprice(db: Database): void {
	const rows = queryAll<{
		entry: number;
		provider: string;
		model: string;
		input: number;
		output: number;
		cr: number;
		cw: number;
		cw1h: number;
		tier: string | null;
	}>(
		db,
		`SELECT u.entry, m.provider, m.model, u.input, u.output, u.cache_read AS cr, u.cache_write AS cw, u.cache_write_1h AS cw1h, u.tier
		 FROM usage u JOIN models m ON m.id = u.model
		 WHERE u.estimated = 1 OR (u.cost IS NULL AND u.input + u.output + u.cache_read + u.cache_write > 0)`,
	);
	const update = db.prepare("UPDATE usage SET cost = ?, estimated = ? WHERE entry = ?");
	for (const r of rows) {
		const tokens = { input: r.input, output: r.output, cacheRead: r.cr, cacheWrite: r.cw, cacheWrite1h: r.cw1h, tier: r.tier ?? undefined };
		const cost = estimateCost(r.provider || undefined, r.model, tokens);
		update.run([cost ?? null, cost === undefined ? 0 : 1, r.entry]);
	}
	update.free();
	db.run("DELETE FROM usage_hours");
	db.run(`${HOURS} GROUP BY u.session, h, u.model`);
	setMeta(db, "prices", PRICE_SOURCE);
}
