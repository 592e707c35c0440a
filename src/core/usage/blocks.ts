/**
 * Billing blocks: Anthropic's five-hour windows of a subscription's limits, as ccusage draws them. A block starts at
 * the hour of the first call after the last block ended (floored to the hour) and lasts five hours; the next call at
 * or after its end starts the next. Read from the per-hour sums (`usage_hours`), which give exactly these blocks: a
 * block's start is an hour, so whether a call falls in it depends on the call's hour alone (and a gap of five hours
 * since the last call, ccusage's other rule, always ends a block that began before that call). The active block (the
 * last, when now is before its end) has its first and last call to the millisecond, its burn rate and a projection
 * to its end.
 */

import type { Database } from "../store/engine.js";
import { queryAll, queryOne } from "../store/engine.js";
import { HOURS, modelNames, SUMS, type Summed, totalsOf, type UsageFilter, type UsageTotals, usageFrom } from "./report.js";

export const BLOCK_HOURS = 5;
const HOUR_MS = 3_600_000;

export interface BlockRequest extends UsageFilter {
	/** Only the last this many blocks. */
	last?: number;
	/** Tokens a block may use: a number, or "max" (the most any finished block used). */
	tokenLimit?: number | "max";
	/** The clock (tests). */
	now?: number;
}

export interface UsageBlock extends UsageTotals {
	/** ISO times: the block's start (an hour) and end, five hours on. */
	start: string;
	end: string;
	/** Whether now is inside it (the last block only). */
	active: boolean;
	/** Model ids used in it. */
	models: string[];
	/** Share of the token limit used, when one is given (1 = all of it). */
	limitShare?: number;
}

export interface ActiveBlock {
	/** ISO times of the block's first and last calls. */
	firstCall: string;
	lastCall: string;
	/** Minutes to the block's end. */
	minutesLeft: number;
	/** Tokens (all four kinds) per minute and USD per hour, from its first call to its last (absent before a second minute). */
	burn?: { tokensPerMinute: number; costPerHour: number };
	/** What it will have used at its end at that rate. */
	projection?: { tokens: number; costUsd: number; limitShare?: number };
}

export interface BlockReport {
	by: "block";
	blocks: UsageBlock[];
	active?: ActiveBlock;
	tokenLimit?: number;
	total: UsageTotals;
}

const ZERO: Omit<Summed, "k"> = {
	sessions: 0,
	messages: 0,
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	costUsd: 0,
	estimatedUsd: 0,
	unpricedMessages: 0,
	toolCalls: 0,
};

type Sums = Omit<Summed, "k" | "provider">;

function add(into: Sums, r: Sums): void {
	for (const f of Object.keys(ZERO) as (keyof Sums)[]) if (f !== "sessions") into[f] += r[f];
}

/** The blocks under a filter, oldest first, with the active one's rates. */
export function usageBlocks(db: Database, request: BlockRequest = {}): BlockReport {
	const now = request.now ?? Date.now();
	const { from, params } = usageFrom(db, request, { table: HOURS });
	const hours = queryAll<Summed>(db, `SELECT h.hour AS k, ${SUMS} ${from} GROUP BY 1 ORDER BY 1`, params);
	const pairs = queryAll<{ hour: number; session: number; model: number }>(
		db,
		`SELECT DISTINCT h.hour AS hour, h.session AS session, h.model AS model ${from}`,
		params,
	);
	const names = modelNames(db);
	const made: { start: number; sums: Sums; sessions: Set<number>; models: Set<string> }[] = [];
	const blockOf = new Map<number, (typeof made)[number]>();
	for (const r of hours) {
		const hour = Number(r.k);
		let block = made[made.length - 1];
		if (!block || hour >= block.start + BLOCK_HOURS) {
			block = { start: hour, sums: { ...ZERO }, sessions: new Set(), models: new Set() };
			made.push(block);
		}
		add(block.sums, r);
		blockOf.set(hour, block);
	}
	for (const p of pairs) {
		const block = blockOf.get(p.hour);
		block?.sessions.add(p.session);
		const name = names.get(p.model)?.model;
		if (block && name) block.models.add(name);
	}
	let blocks: UsageBlock[] = made.map((b) => ({
		start: new Date(b.start * HOUR_MS).toISOString(),
		end: new Date((b.start + BLOCK_HOURS) * HOUR_MS).toISOString(),
		active: false,
		models: [...b.models].sort(),
		...totalsOf({ ...b.sums, sessions: b.sessions.size }),
	}));
	const last = made[made.length - 1];
	const lastEnd = last ? (last.start + BLOCK_HOURS) * HOUR_MS : 0;
	if (last && now >= last.start * HOUR_MS && now < lastEnd) blocks[blocks.length - 1].active = true;
	const finished = blocks.filter((b) => !b.active);
	const limit = request.tokenLimit === "max" ? Math.max(0, ...finished.map((b) => b.tokens)) || undefined : request.tokenLimit;
	if (limit) for (const b of blocks) b.limitShare = b.tokens / limit;
	const active = blocks[blocks.length - 1]?.active ? activeBlock(db, blocks[blocks.length - 1], now, limit) : undefined;
	if (request.last !== undefined) blocks = blocks.slice(-Math.max(1, request.last));
	const total = { ...ZERO };
	const sessions = new Set<number>();
	for (const b of made.slice(-blocks.length)) {
		add(total, b.sums);
		for (const s of b.sessions) sessions.add(s);
	}
	return {
		by: "block",
		blocks,
		...(active ? { active } : {}),
		...(limit ? { tokenLimit: limit } : {}),
		total: totalsOf({ ...total, sessions: sessions.size }),
	};
}

/**
 * The active block's first and last call, read from the calls themselves: those of the sessions changed since it
 * began (`usage_session` finds them), never a scan of every call.
 */
function activeBlock(db: Database, block: UsageBlock, now: number, limit: number | undefined): ActiveBlock {
	const start = Date.parse(block.start);
	const end = Date.parse(block.end);
	const span = queryOne<{ first: number | null; last: number | null }>(
		db,
		`SELECT min(u.ts) AS first, max(u.ts) AS last FROM usage u
		 WHERE u.session IN (SELECT id FROM sessions WHERE modified >= ?) AND u.dup = 0 AND u.ts >= ? AND u.ts < ?`,
		[start, start, end],
	);
	const first = span?.first ?? start;
	const last = span?.last ?? first;
	const minutes = (last - first) / 60_000;
	const minutesLeft = Math.max(0, (end - now) / 60_000);
	const out: ActiveBlock = {
		firstCall: new Date(first).toISOString(),
		lastCall: new Date(last).toISOString(),
		minutesLeft: Math.round(minutesLeft),
	};
	if (minutes >= 1) {
		const tokensPerMinute = block.tokens / minutes;
		const costPerHour = (block.costUsd / minutes) * 60;
		out.burn = { tokensPerMinute: Math.round(tokensPerMinute), costPerHour: Math.round(costPerHour * 1e4) / 1e4 };
		const tokens = Math.round(block.tokens + tokensPerMinute * minutesLeft);
		out.projection = {
			tokens,
			costUsd: Math.round((block.costUsd + (costPerHour / 60) * minutesLeft) * 1e4) / 1e4,
			...(limit ? { limitShare: tokens / limit } : {}),
		};
	}
	return out;
}
