import { describe, expect, it } from "vitest";
import { inSessionReply } from "../../src/core/index.js";
import { readFileRange } from "../../src/node/file-range.js";
import { indexOf, SAMPLE } from "../helpers.js";

describe("search inside one session", () => {
	it("lists every matching entry in the session's order, across branches with their state, paged", async () => {
		const { index } = await indexOf();
		const all = index.searchSession(SAMPLE.branched, { query: "queue", limit: 200 });
		expect(all.total).toBeGreaterThan(4);
		const ids = all.matches.map((m) => m.entryId);
		const order = index.read(SAMPLE.branched, { structure: true });
		expect(order.session.sessionId).toBe(SAMPLE.branched);
		// In file order: the RabbitMQ branch (abandoned) before the DLQ work that was kept.
		expect(ids.indexOf("2485ebf5")).toBeLessThan(ids.indexOf("d0855e88"));
		expect(all.matches.find((m) => m.entryId === "2485ebf5")).toMatchObject({ role: "user", branchState: "abandoned" });
		expect(all.matches.find((m) => m.entryId === "d0855e88")?.branchState).toBe("active");
		expect(all.matches.every((m) => m.snippet.includes("«"))).toBe(true);
		// Pages of two, stitched, are the whole list.
		const pages: string[] = [];
		for (let offset: number | undefined = 0; offset !== undefined; ) {
			const page = index.searchSession(SAMPLE.branched, { query: "queue", limit: 2, offset });
			pages.push(...page.matches.map((m) => m.entryId));
			offset = page.next;
		}
		expect(pages).toEqual(ids);
		// Nothing of another session, and a typo corrected as in a search.
		expect(index.searchSession(SAMPLE.branched, { query: "RabbitMQ" }).matches.map((m) => m.entryId)).toEqual(["2485ebf5", "cd905b67"]);
		const typo = index.searchSession(SAMPLE.branched, { query: "rabitmq" });
		expect(typo.correctedQuery).toBe("rabbitmq");
		expect(typo.total).toBe(2);
		expect(index.searchSession(SAMPLE.branched, { query: "AND AND" }).error).toBeUndefined();
	});

	it("is the tool's reply for sessionId + query, with the session it searched", async () => {
		const { index } = await indexOf();
		const reply = inSessionReply(index, SAMPLE.branched.slice(0, 13), { query: "dead-letter", role: "user" }, { readRange: readFileRange });
		expect(reply.mode).toBe("in-session");
		expect(reply.session.sessionId).toBe(SAMPLE.branched);
		expect(reply.matches.length).toBeGreaterThan(0);
		expect(reply.matches.every((m) => m.role === "user")).toBe(true);
	});
});
