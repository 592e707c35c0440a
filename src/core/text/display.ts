/** Small text helpers every face uses the same way: one-line text, short times, session references. */

import { thousands } from "../defaults.js";

/** Text on one line: runs of whitespace as one space, cut to `max` characters (no mark). */
export function flatten(text: string | undefined, max: number = Number.MAX_SAFE_INTEGER): string {
	return (text ?? "").replace(/\s+/g, " ").slice(0, max);
}

/** An ISO time as `2026-11-04 09:05` (UTC, as stored), or `fallback` when there is none. */
export function shortTime(iso: string | undefined, fallback = ""): string {
	return iso ? iso.slice(0, 16).replace("T", " ") : fallback;
}

/** Whether a session reference is a file path (checked against the session roots) rather than an id or id prefix. */
export function isSessionPath(ref: string): boolean {
	return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl");
}

/** A cost in USD as people read it: `$1,234`, `$12.34`, `$0.12`, and two significant digits below a cent (`$0.0048`). */
export function formatUsd(usd: number): string {
	if (usd >= 99.995) return `$${thousands(Math.round(usd))}`;
	if (usd >= 0.01 || usd === 0) return `$${usd.toFixed(2)}`;
	return `$${usd.toPrecision(2)}`;
}

/** A count of tokens in a few characters: 950, 12.3k, 4.56M, 1.2B. */
export function compactCount(n: number): string {
	const units: [number, string][] = [
		[1e9, "B"],
		[1e6, "M"],
		[1e3, "k"],
	];
	for (const [size, unit] of units) {
		const v = n / size;
		if (v >= 1)
			return `${(v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "")}${unit}`;
	}
	return String(n);
}
