/**
 * Roles a hit can have; search filters by them and ranks prose above tool output. The one list of them: the
 * FTS table's columns (in this order), their BM25 weights and the tool's role parameter follow it. A module of
 * its own, so that the Pi extension's parameters name them without loading the parsers.
 */
export const ROLES = ["user", "assistant", "tool", "summary", "meta"] as const;
export type Role = (typeof ROLES)[number];
