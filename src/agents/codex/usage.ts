/**
 * Codex's usage in Pi's shape: each response's own counts (0.17x's `token_usage_record`), or what the thread's running
 * totals (`token_count`) added, on the answer they were for.
 */

import { minus, piUsage, usageEntry } from "../../core/parse/pi-shape.js";
import type { SessionEntry } from "../../core/parse/session-format.js";
import type { LineContext, Place } from "./state.js";

/** A model answer, kept as the one the next usage report is for. */
export function answer(c: LineContext, entry: SessionEntry): SessionEntry {
	c.cs.answer = entry;
	return entry;
}

const TOKEN_FIELDS = ["input_tokens", "cached_input_tokens", "cache_write_input_tokens", "output_tokens", "reasoning_output_tokens"];

/** A thread's running totals as a key: the same report read twice (a resumed run repeats the last one) counts once. */
export function totalsKey(thread: string, totals: Record<string, unknown> | undefined): string | undefined {
	return totals ? `codex:${thread}:${TOKEN_FIELDS.map((f) => totals[f] ?? "").join(":")}` : undefined;
}

/** What running totals added since the previous ones (nothing when they did not grow: a repeated or reset report). */
export function difference(now: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> | undefined {
	const out: Record<string, unknown> = {};
	let grew = false;
	for (const f of TOKEN_FIELDS) {
		const d = typeof now[f] === "number" && typeof before[f] === "number" ? (now[f] as number) - (before[f] as number) : now[f];
		out[f] = d;
		if (typeof d === "number" && d > 0) grew = true;
	}
	return grew ? out : undefined;
}

/**
 * One response's usage in Pi's shape (OpenAI's input tokens include the cached ones; reasoning is part of the output),
 * on the answer it was for when that answer is in this chunk, else as an entry of its own.
 */
export function usageFor(
	c: LineContext,
	place: () => Place,
	u: Record<string, unknown> | undefined,
	key: string | undefined,
): SessionEntry | undefined {
	if (!u) return undefined;
	const message = {
		model: c.cs.model,
		provider: c.cs.provider ?? "openai",
		usage: piUsage({
			input: minus(u.input_tokens, u.cached_input_tokens, u.cache_write_input_tokens),
			output: u.output_tokens,
			cacheRead: u.cached_input_tokens,
			cacheWrite: u.cache_write_input_tokens ?? 0,
		}),
	};
	const target = c.cs.answer;
	c.cs.answer = undefined;
	if (!target) return usageEntry(place(), message, key);
	Object.assign(target.raw.message as Record<string, unknown>, message);
	if (key) target.usageKey = key;
	return undefined;
}
