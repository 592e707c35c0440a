/** OpenCode's database files: what its walk reads (node/walk.ts), and what a page that cannot read them names. */

/** The database names OpenCode gives in its data folder: `opencode.db` (releases), `opencode-<channel>.db` (other builds). */
export function isOpencodeDbName(name: string): boolean {
	return /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/.test(name);
}
