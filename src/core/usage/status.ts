/**
 * What a status line shows (Claude Code's `statusLine` hook, `lookback status line`): the cost of one session with
 * its sub-agents, of today, and of the active billing block, with its burn rate. Summed from `usage_hours` only.
 */

import type { Database } from "../store/engine.js";
import { queryOne } from "../store/engine.js";
import { usageBlocks } from "./blocks.js";
import { zoneOffset } from "./report.js";

export interface StatusFigures {
	/** USD of the session (and the sub-agents it spawned), when the index holds it. */
	sessionUsd?: number;
	/** The day (YYYY-MM-DD, in the zone) `todayUsd` is of. */
	day: string;
	todayUsd: number;
	/** The last block, if any: its end (ISO), cost, tokens and burn rate while active. */
	block?: { start: string; end: string; costUsd: number; tokens: number; costPerHour?: number };
}

/** Midnight of the day `now` falls on, in the zone (the local one when none is named), and that day's name. */
function dayStart(now: number, timeZone?: string): { start: number; day: string } {
	const offset = timeZone ? zoneOffset(timeZone)(now) : -new Date(now).getTimezoneOffset() * 60;
	const wall = now + offset * 1000;
	const midnight = wall - (wall % 86_400_000);
	return { start: midnight - offset * 1000, day: new Date(midnight).toISOString().slice(0, 10) };
}

export function statusFigures(db: Database, request: { sessionId?: string; now?: number; timeZone?: string }): StatusFigures {
	const now = request.now ?? Date.now();
	const { start, day } = dayStart(now, request.timeZone);
	const today = queryOne<{ usd: number }>(db, "SELECT coalesce(sum(cost), 0) AS usd FROM usage_hours WHERE hour >= ?", [
		Math.floor(start / 3_600_000),
	]);
	const session = request.sessionId
		? queryOne<{ usd: number | null; n: number }>(
				db,
				`SELECT sum(h.cost) AS usd, (SELECT count(*) FROM sessions WHERE session_id = ?) AS n FROM usage_hours h WHERE h.session IN (
				  SELECT id FROM sessions WHERE session_id = ? UNION SELECT id FROM sessions WHERE spawned_by IN (SELECT path FROM sessions WHERE session_id = ?))`,
				[request.sessionId, request.sessionId, request.sessionId],
			)
		: undefined;
	const blocks = usageBlocks(db, { now, last: 1 });
	const last = blocks.blocks[0];
	return {
		...(session && session.n > 0 ? { sessionUsd: Math.round((session.usd ?? 0) * 1e6) / 1e6 } : {}),
		day,
		todayUsd: Math.round((today?.usd ?? 0) * 1e6) / 1e6,
		...(last
			? {
					block: {
						start: last.start,
						end: last.end,
						costUsd: last.costUsd,
						tokens: last.tokens,
						...(blocks.active?.burn ? { costPerHour: blocks.active.burn.costPerHour } : {}),
					},
				}
			: {}),
	};
}
