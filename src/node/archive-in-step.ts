/**
 * The archive's side of a sync that need not read it (core's sync/in-step.ts): a token of the archive and the
 * index as they are (the manifest's and the tombstones' file identity, size and time, the index file's identity
 * and SQLite's count of its commits, header bytes 24–27, which every commit in rollback-journal mode changes),
 * and the token and walk of the last sync that read the state and found nothing to do, kept in the index's lock
 * folder. Losing that file costs one read of the manifest; it is never trusted past a change of either file.
 */

import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { writePrivateFile } from "./private-files.js";

function fileStamp(path: string): string {
	const st = statSync(path, { throwIfNoEntry: false, bigint: true });
	return st ? `${st.ino}:${st.size}:${st.mtimeNs}` : "-";
}

/** The index file's identity and its commit count, or "-" when it cannot be read. */
function indexCommits(indexPath: string): string {
	let fd: number | undefined;
	try {
		fd = openSync(indexPath, "r");
		const header = Buffer.alloc(28);
		if (readSync(fd, header, 0, 28, 0) < 28) return "-";
		return `${fstatSync(fd).ino}:${header.readUInt32BE(24)}`;
	} catch {
		return "-";
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

export class ArchiveInStep {
	private readonly file: string;

	constructor(
		private readonly indexPath: string,
		private readonly archiveFiles: readonly string[],
	) {
		this.file = join(`${indexPath}.locks`, "archive-in-step.json");
	}

	mark(): string {
		return JSON.stringify([...this.archiveFiles.map(fileStamp), indexCommits(this.indexPath)]);
	}

	private noted(): string | undefined {
		try {
			return readFileSync(this.file, "utf8");
		} catch {
			return undefined;
		}
	}

	note(mark: string, walked: string): void {
		const text = JSON.stringify({ mark, walked });
		if (this.noted() === text) return;
		try {
			writePrivateFile(this.file, text);
		} catch {
			// only a shortcut: without it the next sync reads the archive
		}
	}

	holds(mark: string, walked: string): boolean {
		return this.noted() === JSON.stringify({ mark, walked });
	}
}
