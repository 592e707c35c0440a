/** Timestamps: the one place that turns session timestamps and user time filters into epoch milliseconds. */

import { LookbackError } from "../errors.js";

/** Epoch ms of a session timestamp: an ISO string or a number of ms; undefined when unusable. */
export function toEpochMs(value: unknown): number | undefined {
	if (typeof value === "number" && Number.isFinite(value)) return value;
	if (typeof value === "string" && value.length > 0) {
		const ms = Date.parse(value);
		if (Number.isFinite(ms)) return ms;
	}
	return undefined;
}

const RELATIVE = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w|mo|y)$/i;
const UNIT_MS: Record<string, number> = {
	m: 60_000,
	min: 60_000,
	h: 3_600_000,
	d: 86_400_000,
	w: 7 * 86_400_000,
	mo: 30 * 86_400_000,
	y: 365 * 86_400_000,
};

/**
 * A time filter as typed by people and models: a date `2026-07-30` (local midnight), an ISO datetime,
 * or a relative age `30m`, `6h`, `3d`, `2w`, `1mo`, `1y` counted back from `now`.
 * With `bound: "end"` a plain date means the end of that day, so `until 2026-07-30` includes the 30th.
 * @throws LookbackError("bad-argument") with the accepted forms when the text is none of these.
 */
export function parseTimeFilter(text: string, bound: "start" | "end" = "start", now: number = Date.now()): number {
	const value = text.trim();
	const rel = RELATIVE.exec(value);
	if (rel) return now - Number(rel[1]) * UNIT_MS[rel[2].toLowerCase()];
	if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
		const [y, m, d] = value.split("-").map(Number);
		const ms = new Date(y, m - 1, bound === "end" ? d + 1 : d).getTime();
		if (Number.isFinite(ms) && m >= 1 && m <= 12 && d >= 1 && d <= 31) return ms;
	}
	if (/^\d{4}-\d{2}-\d{2}[T ]/.test(value)) {
		const ms = Date.parse(value);
		if (Number.isFinite(ms)) return ms;
	}
	throw new LookbackError(
		"bad-argument",
		`cannot read the time "${text}": use a date (2026-07-30), an ISO datetime (2026-07-30T14:00:00Z) or an age (30m, 6h, 3d, 2w)`,
	);
}

/** A time filter given as epoch ms or as text (see parseTimeFilter); undefined when not given. */
export function timeBound(value: string | number | undefined, bound: "start" | "end", now?: number): number | undefined {
	if (value === undefined || value === "") return undefined;
	return typeof value === "number" ? value : parseTimeFilter(value, bound, now);
}

/** ISO string of epoch ms, or undefined. */
export function isoOf(ms: number | null | undefined): string | undefined {
	return typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
