/**
 * How test/fixtures/opencode/opencode.db was made: the database the real CLI wrote in test/agents/opencode-cli.test.ts
 * (run with LOOKBACK_OPENCODE_FIXTURE=1), as its last commit stands (OpenCode leaves its WAL behind when it exits:
 * read through a WalSnapshot, as lookback reads it), every temp path in it rewritten to `/home/user/zebra-app` and
 * `/home/user`, OpenCode's event log (a second copy of every row) emptied, vacuumed, and marked WAL mode as OpenCode
 * leaves it.
 */

import { writeFileSync } from "node:fs";
import { loadEngine } from "../../src/node/engine.js";
import { WalSnapshot } from "../../src/node/wal-snapshot.js";

export const FIXTURE_PROJECT = "/home/user/zebra-app";

export async function writeOpencodeFixture(db: string, out: string, paths: { project: string; home: string }): Promise<void> {
	// The committed image, in rollback mode (the snapshot shows it so): the engine opens it in memory.
	const snapshot = WalSnapshot.take(db);
	const bytes = new Uint8Array(snapshot.size);
	snapshot.read(bytes, 0, bytes.length, 0);
	snapshot.close();
	const engine = await loadEngine();
	const d = new engine.Database(bytes);
	try {
		const tables = d
			.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")[0]
			.values.map((r) => String(r[0]));
		for (const table of tables) {
			const columns = (d.exec(`PRAGMA table_info(${table})`)[0]?.values ?? []).filter((c) => String(c[2]).toLowerCase() === "text");
			for (const c of columns) {
				const column = `"${String(c[1])}"`;
				d.run(`UPDATE "${table}" SET ${column} = replace(replace(${column}, ?, ?), ?, ?) WHERE ${column} LIKE ? OR ${column} LIKE ?`, [
					paths.project,
					FIXTURE_PROJECT,
					paths.home,
					"/home/user",
					`%${paths.project}%`,
					`%${paths.home}%`,
				]);
			}
		}
		d.run("DELETE FROM event");
		d.run("DELETE FROM event_sequence");
		d.run("VACUUM");
		const image = d.export();
		image[18] = 2;
		image[19] = 2;
		writeFileSync(out, image);
	} finally {
		d.close();
	}
}
