/**
 * Copilot CLI's events that the real CLI writes only in its interactive UI (a title, a compaction, a rewind), read as
 * its published event schema (session-events.schema.json, shipped in the package) describes them, after the events a
 * real run wrote (test/fixtures/copilot).
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { copilotFormat } from "../../src/agents/copilot/format.js";
import { newParseState } from "../../src/core/parse/session-format.js";

const EVENTS = join(
	import.meta.dirname,
	"..",
	"fixtures",
	"copilot",
	"session-state",
	"0b92ea4c-4bbb-44f3-968a-762c1eb45d99",
	"events.jsonl",
);

function event(type: string, id: string, data: Record<string, unknown>): string {
	return JSON.stringify({ type, id, parentId: null, timestamp: "2026-12-07T12:00:00.000Z", data });
}

describe("Copilot CLI's events beyond a headless run", () => {
	it("reads a title, a compaction's summary and a rewind back to the entry before the events it removed", () => {
		const lines = readFileSync(EVENTS, "utf8").trim().split("\n");
		const state = newParseState();
		const real = copilotFormat.parseLines(lines, state);
		expect(real.malformedLines).toBe(0);
		expect(state.header).toMatchObject({ id: "0b92ea4c-4bbb-44f3-968a-762c1eb45d99", cwd: "/home/user/zebra-app" });
		const last = real.entries.at(-1)?.id;
		const more = copilotFormat.parseLines(
			[
				event("session.title_changed", "t1", { title: "Llama census" }),
				event("user.message", "u1", { content: "a prompt rewound later" }),
				event("session.snapshot_rewind", "r1", { upToEventId: "u1", eventsRemoved: 1 }),
				event("session.compaction_complete", "c1", { success: true, summaryContent: "SUMMARY of the llamas" }),
			],
			state,
		);
		expect(more.title).toBe("Llama census");
		const [rewound, compaction] = more.entries;
		expect(rewound).toMatchObject({ id: "u1", parentId: last });
		// After the rewind the conversation goes on from where the rewound prompt hung.
		expect(compaction).toMatchObject({ type: "compaction", id: "c1", parentId: last, raw: { summary: "SUMMARY of the llamas" } });
	});
});
