/** Where the index's sync stands, as a reply says it beside its results. */

import type { NotReadFile, SyncReport } from "../sync/report.js";

/** A running background index (not waited for), a sync that did not see everything, and files skipped by reason. */
export interface SyncState {
	indexing?: { done: number; total: number };
	syncWarning?: { kind: "incomplete-walk"; message: string } | { kind: "sync-failed"; error: string };
	skipped?: Record<string, number>;
	/** Files of an agent's that this lookback cannot read yet (all, or all of), with the agent and the version. */
	notRead?: NotReadFile[];
}

/** What a sync report means for the reply that follows it (nothing when all went well). */
export function syncState(report: SyncReport | undefined): SyncState {
	if (!report) return {};
	const state: SyncState = {};
	const warning = report.warnings.find((w) => w.kind === "incomplete-walk" || w.kind === "sync-failed");
	if (warning?.kind === "incomplete-walk") state.syncWarning = { kind: "incomplete-walk", message: warning.message };
	if (warning?.kind === "sync-failed") state.syncWarning = { kind: "sync-failed", error: warning.error };
	const skipped = Object.fromEntries(Object.entries(report.skipped).filter(([, n]) => n > 0));
	if (Object.keys(skipped).length > 0) state.skipped = skipped;
	if (report.notRead.length > 0) state.notRead = report.notRead;
	return state;
}
