/**
 * The local day of an hour bucket as usage sums it (report.ts, daySql: the zone's offsets looked up once and written
 * into the SQL), against SQLite's own 'localtime' modifier, hour by hour over two years, in zones whose clocks change
 * by an hour, by half an hour, at a half-hour offset, and in zones that never change.
 */

import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/core/index.js";
import { queryAll } from "../../src/core/store/engine.js";
import { daySql, localOffsets } from "../../src/core/usage/report.js";
import { loadEngine } from "../../src/node/engine.js";

const zone = process.env.TZ;
afterAll(() => {
	if (zone === undefined) delete process.env.TZ;
	else process.env.TZ = zone;
});

/** Every hour from 2025-01-01 to 2027-01-01 (UTC), as usage_hours holds them. */
const FIRST = Date.UTC(2025, 0, 1) / 3_600_000;
const LAST = Date.UTC(2027, 0, 1) / 3_600_000;

async function hours(): Promise<Database> {
	const db = new (await loadEngine()).Database() as unknown as Database;
	db.run("CREATE TABLE usage_hours(hour INTEGER PRIMARY KEY)");
	db.run("WITH RECURSIVE n(h) AS (SELECT ? UNION ALL SELECT h + 1 FROM n WHERE h < ?) INSERT INTO usage_hours SELECT h FROM n", [
		FIRST,
		LAST,
	]);
	return db;
}

describe("the local day of an hour", () => {
	for (const tz of ["Europe/Berlin", "America/New_York", "America/St_Johns", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]) {
		it(`is the day SQLite's localtime gives, every hour of two years in ${tz}`, async () => {
			process.env.TZ = tz;
			const db = await hours();
			const rows = queryAll<{ hour: number; ours: string; sqlite: string }>(
				db,
				`SELECT h.hour AS hour, ${daySql(db, false)} AS ours, date(h.hour * 3600, 'unixepoch', 'localtime') AS sqlite FROM usage_hours h`,
			);
			expect(rows.length).toBe(LAST - FIRST + 1);
			expect(rows.filter((r) => r.ours !== r.sqlite)).toEqual([]);
			// Clocks that change do so twice a year: the SQL holds each change, never one per hour.
			const changes = localOffsets(FIRST, LAST).length - 1;
			expect(changes).toBe(tz === "Asia/Kolkata" || tz === "UTC" ? 0 : 4);
			db.close();
		});
	}

	it("is the UTC day when asked for UTC, whatever the zone", async () => {
		process.env.TZ = "Pacific/Kiritimati";
		const db = await hours();
		const [row] = queryAll<{ day: string }>(db, `SELECT ${daySql(db, true)} AS day FROM usage_hours h WHERE h.hour = ?`, [FIRST]);
		expect(row.day).toBe("2025-01-01");
		db.close();
	});
});
