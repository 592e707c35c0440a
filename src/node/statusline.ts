/**
 * `lookback statusline` for Claude Code's `statusLine` hook: reads the hook's JSON on stdin (`session_id`,
 * `model.display_name`) and prints one line, the session's cost, today's and the active block's, from the index.
 * Answered from a small cache file beside the index (`statusline.json`), valid while the index file's mtime and
 * size are those it was made from (the index changes only when something syncs): a hit reads two small files and
 * loads nothing else (src/cli.ts takes it before the command line loads). A miss opens the index as every reader
 * does (its lock protocol), never syncs, and writes the cache again (a temporary file renamed over it).
 * This module is light on purpose: node:fs and node:path only.
 */

import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface HookInput {
	sessionId?: string;
	model?: string;
}

interface Figures {
	sessionUsd?: number;
	day: string;
	todayUsd: number;
	block?: { start: string; end: string; costUsd: number; tokens: number; costPerHour?: number };
}

interface Cache {
	stamp: string;
	zone: string;
	day: string;
	todayUsd: number;
	block?: Figures["block"];
	/** Session id → its USD (null: not in the index). */
	sessions: Record<string, number | null>;
}

const MAX_SESSIONS = 64;

/** Where the hook's input is kept once read (by the quick path, src/cli.ts), for the command line to use on a miss. */
const INPUT = Symbol.for("lookback.statusline.input");

/** stdin, read once in this process. */
export function stdinText(): string {
	const kept = (globalThis as Record<symbol, unknown>)[INPUT];
	if (typeof kept === "string") return kept;
	let text = "";
	try {
		text = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
	} catch {
		// no stdin
	}
	(globalThis as Record<symbol, unknown>)[INPUT] = text;
	return text;
}

/** The day (YYYY-MM-DD) `now` falls on in the zone (the local one when none is named). */
export function dayIn(now: number, timeZone?: string): string {
	// The local day from Date alone: Intl's first use loads ICU's zone data, tens of ms of a status line's start.
	if (!timeZone) {
		const d = new Date(now);
		return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
	}
	return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** The hook's input, leniently: a field that is not a string is left out. */
export function hookInput(text: string): HookInput {
	let obj: Record<string, unknown> = {};
	try {
		const parsed = JSON.parse(text || "{}");
		if (parsed && typeof parsed === "object") obj = parsed;
	} catch {
		// not JSON: a line with no session
	}
	const model = obj.model as Record<string, unknown> | undefined;
	const name = typeof model?.display_name === "string" ? model.display_name : typeof model?.id === "string" ? model.id : undefined;
	return {
		...(typeof obj.session_id === "string" ? { sessionId: obj.session_id } : {}),
		...(name ? { model: name } : {}),
	};
}

function cachePath(indexPath: string): string {
	return join(dirname(indexPath), "statusline.json");
}

/** The index file's stamp (mtime and size), or undefined when there is none. */
export function indexStamp(indexPath: string): string | undefined {
	try {
		const s = statSync(indexPath);
		return `${s.mtimeMs}:${s.size}`;
	} catch {
		return undefined;
	}
}

const usd = (x: number) => (x >= 0.01 || x === 0 ? `$${x.toFixed(2)}` : `$${x.toPrecision(2)}`);
/** Text from a session shown in a terminal: printable characters only, cut short. */
const printable = (text: string) => text.replace(/[^\P{C}]/gu, "").slice(0, 40);

/** The line: model, the session's cost, today's, the active block's with the time left, and its burn rate. */
export function statusText(input: HookInput, f: Figures, now: number): string {
	const parts: string[] = [];
	if (input.model) parts.push(printable(input.model));
	const costs = [`${f.sessionUsd === undefined ? "—" : usd(f.sessionUsd)} session`, `${usd(f.todayUsd)} today`];
	const end = f.block ? Date.parse(f.block.end) : 0;
	if (f.block && now >= Date.parse(f.block.start) && now < end) {
		const left = Math.round((end - now) / 60_000);
		costs.push(`${usd(f.block.costUsd)} block (${Math.floor(left / 60)}h ${left % 60}m left)`);
		parts.push(costs.join(" / "));
		if (f.block.costPerHour !== undefined) parts.push(`${usd(f.block.costPerHour)}/h`);
	} else {
		costs.push("no active block");
		parts.push(costs.join(" / "));
	}
	return `${parts.join(" | ")}\n`;
}

function readCache(indexPath: string): Cache | undefined {
	try {
		return JSON.parse(readFileSync(cachePath(indexPath), "utf8")) as Cache;
	} catch {
		return undefined;
	}
}

/** The line from the cache, when it holds this session (or none is asked) for this stamp, zone and day. */
export function cachedLine(indexPath: string, input: HookInput, zone: string, day: string, now: number): string | undefined {
	const stamp = indexStamp(indexPath);
	const cache = stamp ? readCache(indexPath) : undefined;
	if (!cache || cache.stamp !== stamp || cache.zone !== zone || cache.day !== day) return undefined;
	const session = input.sessionId === undefined ? undefined : cache.sessions[input.sessionId];
	if (input.sessionId !== undefined && session === undefined) return undefined;
	return statusText(
		input,
		{ day, todayUsd: cache.todayUsd, block: cache.block, ...(typeof session === "number" ? { sessionUsd: session } : {}) },
		now,
	);
}

/** Keep figures made from the index at `stamp` (taken before it was read), with the sessions already cached for it. */
export function saveCache(indexPath: string, stamp: string, zone: string, day: string, input: HookInput, f: Figures): void {
	const before = readCache(indexPath);
	const sessions = before && before.stamp === stamp && before.day === day && before.zone === zone ? before.sessions : {};
	if (input.sessionId !== undefined) sessions[input.sessionId] = f.sessionUsd ?? null;
	const kept = Object.fromEntries(Object.entries(sessions).slice(-MAX_SESSIONS));
	const cache: Cache = { stamp, zone, day, todayUsd: f.todayUsd, ...(f.block ? { block: f.block } : {}), sessions: kept };
	const path = cachePath(indexPath);
	const temp = `${path}.${process.pid}.tmp`;
	try {
		writeFileSync(temp, JSON.stringify(cache));
		renameSync(temp, path);
	} catch {
		// a folder it cannot write: the next line is made from the index again
	}
}
