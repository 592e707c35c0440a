/** Small text helpers every face uses the same way: one-line text, short times, session references. */

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
