/** Human output: compact, readable, coloured only on a terminal and never when NO_COLOR is set. */

import {
	agentFacts,
	DEFAULTS,
	type EngineInfo,
	flatten,
	formatUsd,
	type IndexStats,
	type InSessionResponse,
	type SearchResponse,
	type SessionSummary,
	type SessionView,
	type SyncReport,
	sessionsThatMatch,
	shortTime,
	thousands,
} from "../core/index.js";
import type { ArchiveStats } from "../node/archive-store.js";

export interface Style {
	bold(s: string): string;
	dim(s: string): string;
	mark(s: string): string;
	warn(s: string): string;
}

export function makeStyle(color: boolean): Style {
	const wrap = (open: number, close: number) => (s: string) => (color ? `\x1b[${open}m${s}\x1b[${close}m` : s);
	const bold = wrap(1, 22);
	const yellow = wrap(33, 39);
	return {
		bold,
		dim: wrap(2, 22),
		warn: yellow,
		mark: (s) => {
			if (!color) return s;
			return s.split(DEFAULTS.markOpen).join("\x1b[1;33m").split(DEFAULTS.markClose).join("\x1b[22;39m");
		},
	};
}

function day(iso: string | undefined): string {
	return shortTime(iso, "—");
}

/** A session whose file is gone: since when, as every listing says it. */
function goneMark(s: SessionSummary): string {
	return `gone ${day(s.goneAt)}`;
}

/** One line of at most `max` characters, an ellipsis where it was cut. */
function oneLine(text: string | undefined, max: number): string {
	const flat = flatten(text).trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Characters of a message `lookback read` prints before `[…]`. */
const READ_MESSAGE_CHARS = 2_000;

export function formatMB(bytes: number): string {
	return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1)} MB`;
}

function title(s: SessionSummary): string {
	return s.name ?? oneLine(s.firstPrompt, 60) ?? s.sessionId;
}

/** An empty reply and why: the filters that hid matches as the flags that set them, the words no session has, what to try. */
function formatEmpty(response: SearchResponse, style: Style): string {
	const lines = [`no session matches "${response.query}"`];
	const why = response.why;
	for (const h of why?.hiddenBy ?? [])
		lines.push(`  --${h.filter} ${h.value} hid ${sessionsThatMatch(h.sessions)}: leave it out to see them`);
	if (why?.withoutFilters) lines.push(`  the filters together hid ${sessionsThatMatch(why.withoutFilters)}`);
	if (why?.missing.length) lines.push(`  no session has ${why.missing.map((w) => `"${w}"`).join(", ")}`);
	for (const q of why?.tryQueries ?? []) lines.push(`  try: lookback search ${shellWord(q)}`);
	if (why && why.hiddenBy.length === 0 && !why.withoutFilters && why.missing.length === 0 && why.tryQueries.length === 0)
		lines.push(`  ${why.message}`);
	return `${lines.map((l, i) => (i === 0 ? l : style.dim(l))).join("\n")}\n`;
}

/** A query as one word of a POSIX shell command line, to copy. */
function shellWord(text: string): string {
	return /^[\w./:@=,+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

export function formatSearch(response: SearchResponse, style: Style): string {
	if (response.error) return `${style.warn("no search:")} ${response.error}\n`;
	if (response.results.length === 0) return formatEmpty(response, style);
	const lines: string[] = [];
	response.results.forEach((hit, i) => {
		const facts = [hit.agent, hit.project || "—", day(hit.time ?? hit.modified), `${hit.hits} hit${hit.hits === 1 ? "" : "s"}`, hit.role];
		// A hit in a sub-agent's conversation kept in its session's own file (Claude Code 1.0) is off the active branch
		// because it is the sub-agent's, not because the conversation left it: say whose call it came from.
		if (hit.spawnedByEntryId && !hit.spawnedBy) facts.push(`sub-agent of ${hit.spawnedByEntryId}`);
		else if (hit.branchState !== "active") facts.push(style.warn(hit.branchState));
		if (hit.forks.length > 0) facts.push(`+${hit.forks.length} fork${hit.forks.length === 1 ? "" : "s"}`);
		if (hit.foundBy && response.variants?.length) facts.push(`found by ${hit.foundBy.map((q) => `"${q}"`).join(", ")}`);
		if (hit.source === "gone") facts.push(style.warn(goneMark(hit)));
		lines.push(`${style.bold(`${i + 1}. ${title(hit)}`)}  ${style.dim(facts.join(" · "))}`);
		lines.push(`   ${style.mark(hit.snippet)}`);
		lines.push(style.dim(`   ${hit.sessionId} @ ${hit.entryId}   ${hit.resumeHint}`));
	});
	const more = response.totalSessions > response.results.length ? `, ${response.totalSessions - response.results.length} more` : "";
	lines.push(
		style.dim(
			`${response.results.length} session${response.results.length === 1 ? "" : "s"}${more}${response.notice ? ` (${response.notice})` : ""}`,
		),
	);
	return `${lines.join("\n")}\n`;
}

/** Every match inside one session, in its order: where to `lookback read --around`. */
export function formatInSession(response: InSessionResponse & { session: SessionSummary }, style: Style): string {
	if (response.error) return `${style.warn("no search:")} ${response.error}\n`;
	const s = response.session;
	const lines = [`${style.bold(title(s))}  ${style.dim(`${s.cwd ?? ""} · ${s.sessionId}`)}`];
	if (response.total === 0) return `${lines[0]}\nnothing in this session matches "${response.query}"\n`;
	for (const m of response.matches) {
		const state = m.branchState === "active" ? "" : ` ${style.warn(m.branchState)}`;
		lines.push(`${style.bold(`[${m.role}]`)} ${style.dim(`${m.entryId} ${day(m.time)}`)}${state}`);
		lines.push(`   ${style.mark(m.snippet)}`);
	}
	const shown = `${response.offset + 1}–${response.offset + response.matches.length} of ${response.total} matches`;
	const next = response.next !== undefined ? `; more with --offset ${response.next}` : "";
	lines.push(style.dim(`${shown}${next}${response.notice ? ` (${response.notice})` : ""}`));
	return `${lines.join("\n")}\n`;
}

export function formatBrowse(sessions: SessionSummary[], style: Style): string {
	if (sessions.length === 0) return "no sessions indexed\n";
	return `${sessions
		.map(
			(s) =>
				`${style.bold(day(s.modified))}  ${oneLine(title(s), 50).padEnd(50)}  ${style.dim(`${s.agent} · ${s.cwd ?? "—"} · ${s.messageCount} msgs · ${s.sessionId.slice(0, 13)}`)}${s.source === "gone" ? ` ${style.warn(goneMark(s))}` : ""}\n   ${oneLine(s.firstPrompt, 100)}`,
		)
		.join("\n")}\n`;
}

export function formatRead(view: SessionView, style: Style, full = false): string {
	const s = view.session;
	const lines = [`${style.bold(title(s))}  ${style.dim(`${s.cwd ?? ""} · ${day(s.started)} · ${s.sessionId}`)}`];
	if (s.source === "gone")
		lines.push(
			style.warn(
				`${goneMark(s)}: ${(agentFacts(s.agent).restoredElsewhere?.gone ?? "its file was removed; read from lookback's archive (lookback restore {id} writes it back)").replace("{id}", s.sessionId)}`,
			),
		);
	if (view.offset > 0) lines.push(style.dim(`… ${view.offset} earlier messages`));
	for (const m of view.messages) {
		const who = m.tool ? `${m.role} ${m.tool}` : m.role;
		const state = m.branchState === "active" ? "" : ` ${style.warn(m.branchState)}`;
		lines.push(`${style.bold(`[${who}]`)} ${style.dim(`${m.entryId} ${day(m.time)}`)}${state}`);
		lines.push(!full && m.text.length > READ_MESSAGE_CHARS ? `${m.text.slice(0, READ_MESSAGE_CHARS)}\n${style.dim("[…]")}` : m.text);
	}
	const after = view.total - view.offset - view.messages.length;
	if (after > 0) lines.push(style.dim(`… ${after} later messages`));
	return `${lines.join("\n")}\n`;
}

function archiveLine(a: ArchiveStats): string {
	const share = a.sourceBytes > 0 ? ` (${((a.bytes / a.sourceBytes) * 100).toFixed(1)}% of their ${formatMB(a.sourceBytes)})` : "";
	const off = a.keeping ? "" : "turned off; ";
	return `archive     ${off}${a.dir}: ${a.files} files in ${formatMB(a.bytes)}${share}; ${a.gone} gone, ${a.forgotten} forgotten`;
}

export function formatStats(stats: IndexStats, indexPath: string, engine: EngineInfo, archive?: ArchiveStats): string {
	const ratio = stats.corpusBytes > 0 ? ((stats.indexBytes / stats.corpusBytes) * 100).toFixed(1) : "—";
	return [
		`index       ${indexPath}`,
		`sessions    ${stats.sessions}`,
		`entries     ${stats.entries} (${stats.indexedEntries} with text)`,
		`index size  ${formatMB(stats.indexBytes)} (${ratio}% of ${formatMB(stats.corpusBytes)} of session files)`,
		`text        ${(stats.textChars / 1e6).toFixed(2)} M characters indexed, stored in ${formatMB(stats.storedTextBytes)}; ${stats.vocabulary} words for substring search`,
		`skipped     ${stats.skipped.oversized} oversized, ${stats.skipped["tmp-folder"]} in tmp folders, ${stats.skipped.unreadable} unreadable, ${stats.skipped["index-full"]} not taken by a full index; ${stats.malformedLines} malformed lines`,
		`usage       ${usageLine(stats.usage)}`,
		...(archive ? [archiveLine(archive)] : []),
		`last sync   ${stats.lastSync ?? "—"}`,
		`engine      ${engine.build.startsWith("lookback") ? "wasm" : engine.build} (SQLite ${engine.sqliteVersion})`,
		"",
	].join("\n");
}

/** What the indexed sessions cost, estimates and gaps named. */
function usageLine(u: IndexStats["usage"]): string {
	if (u.tokens === 0 && u.costUsd === 0) return "no tokens recorded";
	const parts = [`${formatUsd(u.costUsd)} over ${thousands(u.tokens)} tokens`];
	if (u.estimatedUsd > 0) parts.push(`${formatUsd(u.estimatedUsd)} of it estimated from list prices`);
	if (u.unpricedMessages > 0) parts.push(`${u.unpricedMessages} messages of models with no known price not counted`);
	return `${parts.join("; ")} (lookback usage for more)`;
}

export function formatSyncSummary(report: SyncReport): string {
	const skipped = Object.values(report.skipped).reduce((a, b) => a + b, 0);
	const unknown = report.unknownRecords;
	// A format version never tested is read as far as it is understood, and named (once, however many files hold it).
	const newer =
		report.newVersions.length > 0 ? `newer than any version tested, read as far as understood: ${report.newVersions.join(", ")}\n` : "";
	// Each file lookback cannot read yet is named, with its agent and version.
	const notRead = report.notRead
		.map(
			(f) =>
				`not read${f.why === "newer-version" ? " in full" : ""}: ${f.path} (${f.version ?? f.agent}${f.why === "nothing-read" ? ", no record understood" : ""})\n`,
		)
		.join("");
	const more =
		report.notReadFiles > report.notRead.length ? `and ${report.notReadFiles - report.notRead.length} more files not read\n` : "";
	return (
		`indexed ${report.filesSeen} files: ${report.added} new, ${report.grown} grown, ${report.rewritten} rewritten, ` +
		`${report.purged} purged, ${report.gone > 0 ? `${report.gone} gone (kept in the archive), ` : ""}${report.returned > 0 ? `${report.returned} back, ` : ""}${report.unchanged} unchanged; ${report.entriesIndexed} entries, ${formatMB(report.bytesRead)} read` +
		`${skipped > 0 ? `; ${skipped} skipped` : ""}${report.malformedLines > 0 ? `; ${report.malformedLines} malformed lines` : ""}` +
		`${unknown > 0 ? `; ${unknown} unknown record${unknown === 1 ? "" : "s"} skipped` : ""} in ${(report.durationMs / 1000).toFixed(1)} s\n${newer}${notRead}${more}`
	);
}

export function formatWarnings(report: SyncReport, style: Style): string {
	return report.warnings.map((w) => `${warningText(w, style)}\n`).join("");
}

function warningText(w: SyncReport["warnings"][number], style: Style): string {
	switch (w.kind) {
		case "incomplete-walk":
			return `${style.warn("warning:")} not every session folder could be read (${w.message}); nothing was purged`;
		case "sync-failed":
			return `${style.warn("warning:")} sync failed (${w.error}); results come from the index as it stands`;
		case "index-rebuilt":
			return `${style.warn("warning:")} the index was unusable (${w.reason}) and is rebuilt${w.setAside ? `; the old file is kept at ${w.setAside}` : ""}`;
		case "index-near-ceiling":
			return `${style.warn("warning:")} ${w.message}`;
		case "archive-failed":
			return `${style.warn("warning:")} the archive was not brought up to date (${w.error}); the index is`;
	}
}
