/** The viewer's landing queries: activity per day and projects, from the sessions table. */
import { describe, expect, it } from "vitest";
import { indexOf } from "../helpers.js";

describe("activity and projects", () => {
	it("counts every top-level session once, by the day it started, with its messages", async () => {
		const { index } = await indexOf();
		const sessions = index.browse({ limit: 1000 });
		const days = index.activity();
		expect(days.reduce((n, d) => n + d.sessions, 0)).toBe(sessions.length);
		expect(days.reduce((n, d) => n + d.messages, 0)).toBe(sessions.reduce((n, s) => n + s.messageCount, 0));
		expect(days.map((d) => d.day)).toEqual([...days.map((d) => d.day)].sort());
		const first = sessions.reduce((a, b) => ((a.started ?? "") < (b.started ?? "") ? a : b));
		expect(days[0].day).toBe(first.started?.slice(0, 10));
		for (const d of days) expect(index.browse({ since: d.day, until: d.day, limit: 1000 }).length).toBeGreaterThanOrEqual(d.sessions);
		const overview = index.overview();
		const stats = index.stats();
		expect(overview).toEqual({ sessions: stats.sessions, messages: days.reduce((n, d) => n + d.messages, 0), lastSync: stats.lastSync });
		index.close();
	});

	it("lists projects by session count, the counts matching a browse of each", async () => {
		const { index } = await indexOf();
		const projects = index.projects();
		expect(projects.reduce((n, p) => n + p.sessions, 0)).toBe(index.browse({ limit: 1000 }).length);
		expect(projects.map((p) => p.sessions)).toEqual([...projects.map((p) => p.sessions)].sort((a, b) => b - a));
		const inventory = projects.find((p) => p.project === "inventory-api");
		expect(inventory?.sessions).toBe(index.browse({ project: "inventory-api", limit: 1000 }).length);
		expect(inventory?.sessions).toBeGreaterThan(1);
		index.close();
	});
});
