/** What every way of reading one file in a sync shares: the counts a parse adds to the report, a spilled output read, the links a header names. */

import { DEFAULTS } from "../defaults.js";
import type { ParsedBytes } from "../parse/formats.js";
import { type SessionEntry, sessionIdFromFileName } from "../parse/session-format.js";
import type { SessionFileInfo, SessionSource } from "../parse/source.js";
import type { Database } from "../store/engine.js";
import { noteNotRead, type SyncReport } from "./report.js";

/**
 * Count what a parse skipped, and name a format version never tested once; name the file, with its agent, when it is
 * in such a version or none of its records was understood (`SyncReport.notRead`), never skipped in silence.
 */
export function noteParse(report: SyncReport, parsed: ParsedBytes, file?: { path: string; agent: string }): void {
	report.malformedLines += parsed.malformedLines;
	report.pendingBytes += parsed.pendingBytes;
	report.unknownRecords += parsed.unknownRecords ?? 0;
	if (parsed.newVersion && !report.newVersions.includes(parsed.newVersion)) report.newVersions.push(parsed.newVersion);
	if (!file) return;
	if (parsed.newVersion) noteNotRead(report, { ...file, version: parsed.newVersion, why: "newer-version" });
	else if (parsed.entries.length === 0 && parsed.malformedLines + (parsed.unknownRecords ?? 0) > 0)
		noteNotRead(report, { ...file, why: "nothing-read" });
}

/** A tool result whose whole output sits in a file beside the session is indexed with that output. */
export async function readSpilled(
	source: SessionSource,
	report: SyncReport,
	file: SessionFileInfo,
	entries: SessionEntry[],
): Promise<void> {
	for (const entry of entries) {
		if (!entry.spilled || !source.readBeside) continue;
		const bytes = await source.readBeside(file.root, entry.spilled, DEFAULTS.spilledOutputMaxBytes);
		if (!bytes) continue;
		report.bytesRead += bytes.length;
		const message = entry.raw.message as { content: { type: string; text: string }[] } | undefined;
		if (message) message.content = [{ type: "text", text: new TextDecoder().decode(bytes) }];
	}
}

/** The session a fork header names: Pi writes a path (its file name holds the id), omp, Codex and OpenCode the id itself. */
export function parentIdOf(parentSession: string): string | undefined {
	return sessionIdFromFileName(parentSession) ?? (/^[\w-]{8,}$/.test(parentSession) ? parentSession : undefined);
}

/** A sub-agent transcript that names its session only by id: that session's file beside it (Claude Code 2.0's `agent-<id>.jsonl`). */
export function spawnerOf(file: SessionFileInfo, sessionId: string | undefined): string | null {
	if (file.kind !== "subagent" || !sessionId) return null;
	const cut = Math.max(file.path.lastIndexOf("/"), file.path.lastIndexOf("\\"));
	return `${file.path.slice(0, cut + 1)}${sessionId}.jsonl`;
}

/** The rowid of the row just inserted. */
export function lastRowId(db: Database): number {
	return Number(db.exec("SELECT last_insert_rowid()")[0].values[0][0]);
}
