/**
 * Where a session ranks among the sessions that hold one message, lower first: the session that started first
 * (one with no start last), then its path. One order for every place that picks among copies — which row holds
 * the text (sync/copies.ts), which row's usage counts (sync/usage-writer.ts), how a hit lists the copies
 * (search/shape.ts) — so that they agree. `alias` names the `sessions` row in the query.
 */
export function sessionRank(alias: string): string {
	return `coalesce(${alias}.started, 9e15), ${alias}.path`;
}
