/** What Pi's and omp's folders hold that both walks know, on disk (node/walk.ts) and in a page (web/src/browser-source.ts). */

/** Session folders of temporary working directories are skipped, by their encoded name (Pi: `--tmp-…`, omp: `-tmp-…`). */
export function isTmpSessionFolder(name: string): boolean {
	return name.startsWith("--tmp-") || name.startsWith("--private-tmp-") || name === "-tmp" || name.startsWith("-tmp-");
}

/** A session file of Pi or omp (omp's archives gzipped). */
export function isPiSessionName(name: string): boolean {
	return name.endsWith(".jsonl") || name.endsWith(".jsonl.gz");
}
