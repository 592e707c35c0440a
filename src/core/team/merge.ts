/**
 * The answers of a team's shards joined into one reply, each hit and session naming its machine (`shard`), the shards
 * that could not answer named apart (`unreachable`).
 *
 * Search: each shard ranks its own matches by BM25 over its own sessions, in tiers (the query as typed, then word
 * forms, typos and the like), and the lists are merged by score. BM25 scores are comparable between shards because
 * a term's weight is log(N/df) over the shard's own N entries and df matches, a ratio: a word as rare in a small
 * shard as in a large one weighs the same in both, and each entry's length is measured against its own shard's
 * average. So the merge compares scores as they are. A shard's own order is kept whatever its scores (a later tier
 * never passes an earlier hit of the same shard): each hit is taken at the worst score of its shard's hits so far.
 */

import type { SessionSummary } from "../read/session-rows.js";
import type { SearchHit, SearchResponse } from "../search/search.js";
import type { UsageReport, UsageRow, UsageTotals } from "../usage/report.js";

export interface ShardProblem {
	shard: string;
	error: string;
}

/** The answers of one call over every shard: each shard's value, or its problem. */
export interface FannedOut<T> {
	answers: { shard: string; value: T }[];
	problems: ShardProblem[];
}

export type Shard<T> = T & { shard: string };

export interface TeamNote {
	/** The shards that answered. */
	shards: string[];
	/** The shards that could not answer, and why (one line each). */
	unreachable: ShardProblem[];
}

export interface TeamSearchResponse extends Omit<SearchResponse, "results">, TeamNote {
	results: Shard<SearchHit>[];
}

function note<T>(fanned: FannedOut<T>): TeamNote {
	return { shards: fanned.answers.map((a) => a.shard), unreachable: fanned.problems };
}

export function mergeSearch(query: string, all: FannedOut<SearchResponse>, limit: number): TeamSearchResponse {
	// A word one shard has as typed is no typo: the shards that corrected it to a word of their own are left out.
	const asTyped = all.answers.some((a) => !a.value.correctedQuery && a.value.results.length > 0);
	const fanned = asTyped ? { ...all, answers: all.answers.filter((a) => !a.value.correctedQuery) } : all;
	const ranked: { hit: Shard<SearchHit>; key: number; order: number }[] = [];
	let order = 0;
	for (const { shard, value } of fanned.answers) {
		let worst = Number.NEGATIVE_INFINITY;
		for (const hit of value.results) {
			worst = Math.max(worst, hit.score);
			ranked.push({ hit: { ...hit, shard }, key: worst, order: order++ });
		}
	}
	ranked.sort((a, b) => a.key - b.key || a.order - b.order);
	const values = fanned.answers.map((a) => a.value);
	const first = values.find((v) => !v.error) ?? values[0];
	const notices = [...new Set(values.map((v) => v.notice).filter((n): n is string => !!n))];
	const fallbacks = [...new Set(values.flatMap((v) => v.fallbacks ?? []))];
	const errors = values.filter((v) => v.error);
	return {
		query,
		...(first?.variants ? { variants: first.variants } : {}),
		...(first?.match ? { match: first.match } : {}),
		results: ranked.slice(0, limit).map((r) => r.hit),
		totalSessions: values.reduce((n, v) => n + v.totalSessions, 0),
		...(errors.length > 0 && errors.length === values.length ? { error: errors[0].error } : {}),
		...(notices.length > 0 ? { notice: notices.join("; ") } : {}),
		...(first?.correctedQuery ? { correctedQuery: first.correctedQuery } : {}),
		...(fallbacks.length > 0 ? { fallbacks } : {}),
		...note(all),
	};
}

/** The newest first, as a browse lists one index's. */
export function mergeBrowse(fanned: FannedOut<SessionSummary[]>, limit: number): TeamNote & { sessions: Shard<SessionSummary>[] } {
	const sessions = fanned.answers.flatMap(({ shard, value }) => value.map((s) => ({ ...s, shard })));
	sessions.sort((a, b) => (b.modified ?? "").localeCompare(a.modified ?? ""));
	return { sessions: sessions.slice(0, limit), ...note(fanned) };
}

const SUMMED = [
	"sessions",
	"messages",
	"input",
	"output",
	"cacheRead",
	"cacheWrite",
	"tokens",
	"costUsd",
	"estimatedUsd",
	"unpricedMessages",
	"toolCalls",
] as const;

function add(into: UsageTotals, from: UsageTotals): void {
	for (const key of SUMMED) into[key] += from[key];
}

/** Rows of the same group summed across shards (a session's row is its shard's own); periods in order, the rest most expensive first. */
export function mergeUsage(fanned: FannedOut<UsageReport>, limit: number): TeamNote & UsageReport {
	const first = fanned.answers[0]?.value;
	const by = first?.by ?? "day";
	const rows = new Map<string, Shard<UsageRow> | UsageRow>();
	const total = Object.fromEntries(SUMMED.map((k) => [k, 0])) as unknown as UsageTotals;
	for (const { shard, value } of fanned.answers) {
		add(total, value.total);
		for (const row of value.rows) {
			const key = by === "session" ? `${shard}\n${row.key}` : `${row.key}\n${row.provider ?? ""}`;
			const kept = rows.get(key);
			if (kept) add(kept, row);
			else rows.set(key, by === "session" ? { ...row, shard } : { ...row });
		}
	}
	const periods = by === "day" || by === "week" || by === "month";
	const merged = [...rows.values()].sort((a, b) => (periods ? a.key.localeCompare(b.key) : b.costUsd - a.costUsd || b.tokens - a.tokens));
	return {
		by,
		rows: periods ? merged : merged.slice(0, limit),
		total,
		utc: first?.utc ?? false,
		prices: first?.prices ?? "",
		...note(fanned),
	};
}
