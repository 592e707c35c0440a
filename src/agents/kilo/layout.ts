/** Kilo Code's database files: what its walk reads (node/index.ts), and what a page that cannot read them names. */

/**
 * The database names Kilo Code gives in its data folder: `kilo.db` (releases), `kilo-<channel>.db` (other builds),
 * and `opencode-<channel>.db`, the name a channel's database had before (7.7's fallback when no `kilo-` one exists).
 */
export function isKiloDbName(name: string): boolean {
	return /^kilo(?:-[A-Za-z0-9._-]+)?\.db$/.test(name) || /^opencode-[A-Za-z0-9._-]+\.db$/.test(name);
}
