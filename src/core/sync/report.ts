/** What a sync did and what it skipped: the report, kept as the sync goes. */

import { DEFAULTS } from "../defaults.js";
import type { SkippedFile, SkipReason, SyncWarning } from "../parse/source.js";

/** What a sync did and what it skipped. Counts of work are exact (tests assert them). */
export interface SyncReport {
	filesSeen: number;
	added: number;
	grown: number;
	rewritten: number;
	unchanged: number;
	/** Files whose time changed with no new complete line (counted in unchanged too). */
	touched: number;
	/** omp sessions whose title slot was rewritten in place: the title is updated, the body not read again. */
	retitled: number;
	purged: number;
	/** Sessions whose file went this sync and that stay, read from the archive (`source: "gone"`). */
	gone: number;
	/** Gone sessions whose file came back. */
	returned: number;
	/** Gone sessions indexed from the archive (an index rebuilt); counted in added too. */
	fromArchive: number;
	/** Files whose copy in the archive was brought up to date, the bytes read for it and the bytes it wrote. */
	archivedFiles: number;
	archiveBytesRead: number;
	archiveBytesWritten: number;
	/** Files whose bytes were parsed (added + grown + rewritten). */
	filesParsed: number;
	/** Bytes of session content read and parsed. */
	bytesRead: number;
	/** Bytes read to check that a grown file's head is unchanged (at most `headFingerprintBytes` per file). */
	fingerprintBytesRead: number;
	entriesIndexed: number;
	/** Entries of a message already indexed from another file of its project (a copied history): in their session's tree, not indexed again. */
	entriesCopied: number;
	malformedLines: number;
	/** Records of a type this lookback does not know (another agent's newer format): skipped and counted. */
	unknownRecords: number;
	/** Format versions newer than any tested (e.g. "Claude Code 2.2.0"), each named once: read as far as understood. */
	newVersions: string[];
	/**
	 * Files this lookback cannot read yet, each named with its agent and the version it says it is: a version newer than
	 * any tested (read as far as understood), or a file whose records parsed to nothing (a format it does not know). The
	 * first `DEFAULTS.skippedFilesListed`; `notReadFiles` counts them all.
	 */
	notRead: NotReadFile[];
	notReadFiles: number;
	/** Bytes of half-written last lines left for the next sync. */
	pendingBytes: number;
	/** Lines over `DEFAULTS.maxLineBytes` in files read in chunks: skipped, never held whole. */
	longLines: number;
	skipped: Record<SkipReason, number>;
	/** The first skipped files, for messages (at most `DEFAULTS.skippedFilesListed`). */
	skippedFiles: SkippedFile[];
	warnings: SyncWarning[];
	/** Whether the index changed (and so a snapshot needs saving). */
	changed: boolean;
	/** Whether the sync was stopped (`signal`) before every file was read; the rest is read by the next sync. */
	interrupted: boolean;
	durationMs: number;
}

/** A file of an agent's that lookback cannot read yet, or not all of. */
export interface NotReadFile {
	path: string;
	agent: string;
	/** The version it is in, when it says ("OpenCode 1.19.0"). */
	version?: string;
	/** "newer-version": read as far as understood; "nothing-read": none of its records was understood. */
	why: "newer-version" | "nothing-read";
}

/** Name a file this lookback cannot read yet. */
export function noteNotRead(report: SyncReport, file: NotReadFile): void {
	report.notReadFiles++;
	if (report.notRead.length < DEFAULTS.skippedFilesListed) report.notRead.push(file);
}

export interface SyncProgress {
	done: number;
	total: number;
	bytesRead: number;
	/** Bytes this sync reads in all, known after its walk: new and rewritten files whole, grown files from their last byte. */
	workBytes: number;
	path: string;
}

export function emptyReport(): SyncReport {
	return {
		filesSeen: 0,
		added: 0,
		grown: 0,
		rewritten: 0,
		unchanged: 0,
		touched: 0,
		retitled: 0,
		purged: 0,
		gone: 0,
		returned: 0,
		fromArchive: 0,
		archivedFiles: 0,
		archiveBytesRead: 0,
		archiveBytesWritten: 0,
		filesParsed: 0,
		bytesRead: 0,
		fingerprintBytesRead: 0,
		entriesIndexed: 0,
		entriesCopied: 0,
		malformedLines: 0,
		unknownRecords: 0,
		newVersions: [],
		notRead: [],
		notReadFiles: 0,
		pendingBytes: 0,
		longLines: 0,
		skipped: { oversized: 0, "tmp-folder": 0, unreadable: 0, "index-full": 0 },
		skippedFiles: [],
		warnings: [],
		changed: false,
		interrupted: false,
		durationMs: 0,
	};
}

export function skip(report: SyncReport, file: SkippedFile): void {
	report.skipped[file.reason]++;
	if (report.skippedFiles.length < DEFAULTS.skippedFilesListed) report.skippedFiles.push(file);
}

/** Whether the sync changed the index. */
export function changedBy(report: SyncReport): boolean {
	return (
		report.added + report.grown + report.rewritten + report.purged + report.touched + report.retitled + report.gone + report.returned > 0
	);
}
