/** Sessions removed from the index for good (`lookback forget`): their tombstones live in the archive, which a sync consults. */

import type { Database } from "../store/engine.js";
import { queryAll } from "../store/engine.js";
import { metaValue, setMeta } from "../store/stats.js";
import type { Transactions } from "../store/transactions.js";
import { SessionWriter } from "./session-writer.js";

/** Purge the sessions of these files in one write transaction; returns how many the index held. */
export async function forgetFiles(db: Database, tx: Transactions, paths: readonly string[]): Promise<number> {
	await tx.beginWrite(db);
	try {
		const writer = new SessionWriter(db);
		let purged = 0;
		for (const path of paths) {
			const row = queryAll<{ id: number }>(db, "SELECT id FROM sessions WHERE path = ?", [path])[0];
			if (!row) continue;
			writer.purgeSession(row.id);
			purged++;
		}
		writer.finish();
		if (purged > 0) setMeta(db, "generation", String(Number(metaValue(db, "generation") ?? 0) + 1));
		await tx.commit(db);
		return purged;
	} catch (error) {
		tx.rollback(db);
		throw error;
	}
}
