/** `lookback usage --by block` as a terminal table: one row a five-hour block, the active one's rates below it. */

import { type BlockReport, compactCount, formatUsd, thousands } from "../core/index.js";
import type { Style } from "./format.js";
import { costCell, padEnd, padStart, widthOf } from "./usage-format.js";

/** A block's start as wall time (`YYYY-MM-DD HH:00`) in UTC, a named zone, or the local one. */
function wallTime(iso: string, zone: { utc?: boolean; timeZone?: string }): string {
	const p = Object.fromEntries(
		new Intl.DateTimeFormat("en-US", {
			timeZone: zone.utc ? "UTC" : zone.timeZone,
			hourCycle: "h23",
			year: "numeric",
			month: "2-digit",
			day: "2-digit",
			hour: "2-digit",
			minute: "2-digit",
		})
			.formatToParts(Date.parse(iso))
			.map((x) => [x.type, x.value]),
	);
	return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

const share = (x: number) => `${Math.round(x * 100)}%`;

export function formatBlocks(report: BlockReport, style: Style, zone: { utc?: boolean; timeZone?: string }): string {
	if (report.blocks.length === 0) return "no usage recorded in the sessions that match\n";
	const limit = report.tokenLimit !== undefined;
	const head = ["block start", "sessions", "messages", "tokens", "cost", ...(limit ? ["of limit"] : []), "models"];
	const rows = report.blocks.map((b) => [
		`${wallTime(b.start, zone)}${b.active ? " (active)" : ""}`,
		thousands(b.sessions),
		thousands(b.messages),
		thousands(b.tokens),
		costCell(b),
		...(limit ? [share(b.limitShare ?? 0)] : []),
		b.models.join(", "),
	]);
	const t = report.total;
	const total = ["total", thousands(t.sessions), thousands(t.messages), thousands(t.tokens), costCell(t), ...(limit ? [""] : []), ""];
	const widths = head.map((h, i) => Math.max(widthOf(h), ...[...rows, total].map((r) => widthOf(r[i]))));
	const last = head.length - 1;
	const line = (r: string[]) =>
		r
			.map((c, i) => (i === 0 || i === last ? padEnd(c, widths[i]) : padStart(c, widths[i])))
			.join("  ")
			.trimEnd();
	const rule = style.dim(widths.map((w) => "─".repeat(w)).join("  "));
	const out = [style.bold(line(head)), rule, ...rows.map(line), rule, style.bold(line(total))];
	const a = report.active;
	if (a) {
		const left = `${Math.floor(a.minutesLeft / 60)}h ${a.minutesLeft % 60}m left`;
		out.push("", `active block: ${left}, first call ${wallTime(a.firstCall, zone)}, last ${wallTime(a.lastCall, zone)}`);
		if (a.burn) out.push(`burn rate: ${compactCount(a.burn.tokensPerMinute)} tokens/min, ${formatUsd(a.burn.costPerHour)}/h`);
		if (a.projection) {
			const over = a.projection.limitShare !== undefined && a.projection.limitShare > 1;
			const text = `projected at its end: ${compactCount(a.projection.tokens)} tokens, ${formatUsd(a.projection.costUsd)}${a.projection.limitShare !== undefined ? ` (${share(a.projection.limitShare)} of the limit)` : ""}`;
			out.push(over ? style.bold(`${text}: over the limit`) : text);
		}
	}
	if (limit) out.push(style.dim(`token limit ${thousands(report.tokenLimit ?? 0)} a block`));
	out.push(
		style.dim(
			`blocks of 5 hours from the hour of their first call; times in ${zone.utc ? "UTC" : (zone.timeZone ?? "the local time zone")}`,
		),
	);
	return `${out.join("\n")}\n`;
}
