/** `lookback usage` as a terminal table, after ccusage's: one row a group, a totals row, costs in USD with estimates marked. */

import { compactCount, formatUsd, pricesLabel, thousands, type UsageReport, type UsageTotals } from "../core/index.js";
import type { Style } from "./format.js";

const GROUP_TITLE: Record<UsageReport["by"], string> = {
	day: "day",
	week: "week of",
	month: "month",
	project: "project",
	model: "model",
	agent: "agent",
	session: "session",
};

/** The cost cell: `*` when part of it is estimated, `+` when it leaves out messages with no price. */
export function costCell(t: UsageTotals): string {
	const priced = t.costUsd > 0 || t.unpricedMessages === 0;
	const cost = priced ? formatUsd(t.costUsd) : "—";
	return `${cost}${t.estimatedUsd > 0 ? "*" : ""}${t.unpricedMessages > 0 && priced ? "+" : ""}`;
}

const n = thousands;

/** Columns a character takes in a terminal: two for East Asian wide ones (a Chinese title), else one. */
function charWidth(c: string): number {
	const p = c.codePointAt(0) ?? 0;
	const wide =
		(p >= 0x1100 && p <= 0x115f) ||
		(p >= 0x2e80 && p <= 0xa4cf) ||
		(p >= 0xac00 && p <= 0xd7a3) ||
		(p >= 0xf900 && p <= 0xfaff) ||
		(p >= 0xfe30 && p <= 0xfe4f) ||
		(p >= 0xff00 && p <= 0xff60) ||
		(p >= 0xffe0 && p <= 0xffe6) ||
		p >= 0x1f300;
	return wide ? 2 : 1;
}

export function widthOf(text: string): number {
	let w = 0;
	for (const c of text) w += charWidth(c);
	return w;
}

/** Text cut to `max` columns, an ellipsis where it was cut. */
function cutTo(text: string, max: number): string {
	if (widthOf(text) <= max) return text;
	let out = "";
	let w = 0;
	for (const c of text) {
		if (w + charWidth(c) > max - 1) break;
		out += c;
		w += charWidth(c);
	}
	return `${out}…`;
}

export const padEnd = (text: string, width: number) => text + " ".repeat(Math.max(0, width - widthOf(text)));
export const padStart = (text: string, width: number) => " ".repeat(Math.max(0, width - widthOf(text))) + text;

/** Cells of one row after its key: sessions, messages, tokens by kind and in all, tool calls, cost. */
function cells(t: UsageTotals, compact: boolean): string[] {
	const tok = compact ? compactCount : n;
	return [
		n(t.sessions),
		n(t.messages),
		tok(t.input),
		tok(t.output),
		tok(t.cacheRead),
		tok(t.cacheWrite),
		tok(t.tokens),
		n(t.toolCalls),
		costCell(t),
	];
}

/** The key of a row as shown: a session by its title and id prefix, a model with its provider. */
function keyCell(report: UsageReport, row: UsageReport["rows"][number]): string {
	if (report.by === "session") {
		const cut = cutTo((row.name ?? "").replace(/\s+/g, " ").trim(), 40);
		return `${row.key.slice(0, 8)}${cut ? `  ${cut}` : ""}`;
	}
	if (report.by === "model" && row.provider) return `${row.key} (${row.provider})`;
	return row.key;
}

/**
 * The table. `width`: the terminal's columns, if known; token counts are shown compact (12.3k) when full numbers
 * would not fit.
 */
export function formatUsage(report: UsageReport, style: Style, width = 160): string {
	if (report.total.messages === 0 && report.total.tokens === 0) return "no usage recorded in the sessions that match\n";
	const head = [
		GROUP_TITLE[report.by],
		"sessions",
		"messages",
		"input",
		"output",
		"cache read",
		"cache write",
		"tokens",
		"tool calls",
		"cost",
	];
	const build = (compact: boolean) => [
		...report.rows.map((r) => [keyCell(report, r), ...cells(r, compact)]),
		["total", ...cells(report.total, compact)],
	];
	let body = build(false);
	const columns = (rows: string[][]) => head.map((h, i) => Math.max(h.length, ...rows.map((r) => widthOf(r[i]))));
	let widths = columns(body);
	if (widths.reduce((a, b) => a + b + 2, 0) > width) {
		body = build(true);
		widths = columns(body);
	}
	const line = (r: string[]) => r.map((c, i) => (i === 0 ? padEnd(c, widths[i]) : padStart(c, widths[i]))).join("  ");
	const rule = style.dim(widths.map((w) => "─".repeat(w)).join("  "));
	const out = [style.bold(line(head)), rule, ...body.slice(0, -1).map(line), rule, style.bold(line(body[body.length - 1]))];
	const t = report.total;
	if (t.estimatedUsd > 0)
		out.push(
			style.dim(
				`* includes ${formatUsd(t.estimatedUsd)} estimated at list prices (${pricesLabel(report.prices)}) for sessions that recorded tokens but no cost`,
			),
		);
	if (t.unpricedMessages > 0) out.push(style.dim(`+ leaves out ${n(t.unpricedMessages)} messages of models with no known price`));
	if (["day", "week", "month"].includes(report.by))
		out.push(style.dim(`times in ${report.utc ? "UTC" : "the local time zone"}, to the hour`));
	return `${out.join("\n")}\n`;
}
