/**
 * A sync that finds nothing changed need not read the archive's state. That state (its manifest: a line per file
 * kept, 2.4 MB at 5,294 files) tells which files need their copy brought up to date, which archived files come back
 * into a rebuilt index and which vanished files are gone rather than purged; a sync that read it and found nothing
 * to do says so to the archive (`noteInStep`), under a token of the archive and the index taken before it read what
 * the index holds (`mark`). A later sync whose token and walk are the same, and whose walk again finds every file
 * as indexed, would decide the same from the same state: nothing. It reads the state only when one of them differs.
 * Reading it was 16–20 ms of a one-shot command at 2 GB.
 */

import type { SessionArchive } from "../parse/archive.js";
import type { SessionSource, WalkResult } from "../parse/source.js";
import { type Stamp, settledRoots } from "./gone.js";

/** What of a walk the archive's decisions depend on besides its files: the roots, those settled, the agents left out. */
export function walkedFacts(source: SessionSource, walk: WalkResult): string {
	const sorted = (xs: readonly string[]) => [...xs].sort();
	return JSON.stringify([sorted(source.roots()), sorted(settledRoots(walk)), sorted(source.leftOut?.() ?? [])]);
}

/**
 * Whether every file indexed under a root walked fully or missing, of an agent not left out, was walked or is gone
 * already: with every file walked found as indexed (the sync's plan, nothing to read), the walk and the index agree.
 */
export function everyIndexedWalked(
	known: ReadonlyMap<string, Stamp>,
	walk: WalkResult,
	source: SessionSource,
	seen: ReadonlySet<string>,
): boolean {
	const settled = new Set(settledRoots(walk));
	const leftOut = new Set<string>(source.leftOut?.() ?? []);
	for (const [path, k] of known) {
		if (leftOut.has(k.agent)) return false;
		if (k.goneAt === null && settled.has(k.root) && !seen.has(path)) return false;
	}
	return true;
}

/** The archive's token, when it keeps copies and can give one. */
export function archiveMark(archive: SessionArchive | undefined): string | undefined {
	return archive?.keeping ? archive.mark?.() : undefined;
}
