/**
 * Shared boilerplate (issue 34, point 3): a block of text many sessions share word for word is indexed apart and
 * read after every session's own words, whatever order the sessions were indexed in, a fork's copy counted once.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";
import { assistantMessage, newSession, SessionManager, userMessage } from "../pi-sessions.js";

/** An AGENTS.md as a harness pastes it into every session, a paragraph of 300+ characters. */
const AGENTS_MD = [
	"# AGENTS.md instructions for this repository",
	"Always run the formatter before committing, keep functions small, prefer composition over inheritance, write tests for every bug you fix, and never touch the generated files under vendor or dist. The quarterly widgetry review decides what ships; mention the ticket in each commit message and keep pull requests under four hundred lines.",
].join("\n\n");

async function indexed(root: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	await index.sync(fileSource([{ path: root, layout: "nested" }]));
	return index;
}

/** The FTS columns an entry's text went into: the user column's words and the shared column's. */
function columnsOf(index: LookbackIndex, word: string): { user: number; shared: number } {
	const count = (column: string) =>
		Number(index.db.exec("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?", [`{${column}} : "${word}"`])[0].values[0][0]);
	return { user: count("user"), shared: count("shared") };
}

describe("shared boilerplate", () => {
	it("indexes a block four sessions share apart, and ranks a session's own words above it", async () => {
		const root = join(tempDir("shared"), "sessions");
		const boiler: string[] = [];
		for (let i = 0; i < 4; i++) {
			const sm = newSession(root, `/home/dev/app${i}`);
			sm.appendMessage(userMessage(`${AGENTS_MD}\n\nfix the flaky login test number ${i}`));
			sm.appendMessage(assistantMessage("done"));
			boiler.push(sm.getSessionId());
		}
		const own = newSession(root, "/home/dev/widgets");
		own.appendMessage(userMessage("plan the widgetry review agenda"));
		own.appendMessage(assistantMessage("drafted"));
		const index = await indexed(root);
		// Every session's copy of the block went into the shared column, the first ones indexed too.
		expect(columnsOf(index, "widgetry")).toEqual({ user: 1, shared: 4 });
		// The person's own words in those sessions stay theirs.
		expect(columnsOf(index, "flaky")).toEqual({ user: 4, shared: 0 });
		const r = index.search({ query: "widgetry" });
		expect(r.results[0].sessionId).toBe(own.getSessionId());
		expect(
			r.results
				.slice(1)
				.map((h) => h.sessionId)
				.sort(),
		).toEqual([...boiler].sort());
		expect(r.fallbacks).toEqual(["shared"]);
		// Found by what they say themselves (two of the words), the boilerplate sessions come first again.
		const mixed = index.search({ query: "flaky login widgetry" }).results.map((h) => h.sessionId);
		expect(mixed.slice(0, 4).sort()).toEqual([...boiler].sort());
		index.close();
	});

	it("counts a fork and the session it copies once, and gives a block back when too few sessions hold it", async () => {
		const root = join(tempDir("shared"), "sessions");
		const first = newSession(root, "/home/dev/app");
		first.appendMessage(userMessage(`${AGENTS_MD}\n\nfirst task`));
		const leaf = first.appendMessage(assistantMessage("ok"));
		// Two forks of the first session (Pi's clone: the path copied into a new file naming its parent): one family.
		for (let i = 0; i < 2; i++) {
			const fork = SessionManager.open(first.getSessionFile()!);
			fork.createBranchedSession(leaf);
			fork.appendMessage(userMessage(`fork ${i} goes on`));
			fork.appendMessage(assistantMessage("ok"));
		}
		const second = newSession(root, "/home/dev/other");
		second.appendMessage(userMessage(`${AGENTS_MD}\n\nsecond task`));
		second.appendMessage(assistantMessage("ok"));
		let index = await indexed(root);
		expect(columnsOf(index, "widgetry").shared).toBe(0);
		index.close();
		const third = newSession(root, "/home/dev/third");
		third.appendMessage(userMessage(`${AGENTS_MD}\n\nthird task`));
		third.appendMessage(assistantMessage("ok"));
		index = await indexed(root);
		expect(columnsOf(index, "widgetry")).toEqual({ user: 0, shared: 5 });
		// The third family goes: the block is the others' own words again.
		rmSync(third.getSessionFile()!);
		await index.sync(fileSource([{ path: root, layout: "nested" }]));
		expect(columnsOf(index, "widgetry")).toEqual({ user: 4, shared: 0 });
		index.close();
	});
});
