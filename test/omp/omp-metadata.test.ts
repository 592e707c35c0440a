/** Titles and summaries from omp's history.db and agent.db (made here with sql.js, in omp's schemas). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { loadEngine } from "../../src/node/engine.js";
import { HostIndex } from "../../src/node/host-index.js";
import { tempDir } from "../helpers.js";
import { ARCHIVED, ompStore, PARENT } from "./omp-store.js";

async function historyDb(withTitles: boolean): Promise<Uint8Array> {
	const SQL = await loadEngine();
	const db = new SQL.Database();
	db.run(
		`CREATE TABLE history (id INTEGER PRIMARY KEY AUTOINCREMENT, prompt TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL, cwd TEXT, session_id TEXT)`,
	);
	db.run("INSERT INTO history(prompt, created_at, cwd, session_id) VALUES ('why are the cart totals off', 1, '/home/dev/shop', ?)", [
		PARENT,
	]);
	if (withTitles) {
		db.run("CREATE TABLE session_titles (session_id TEXT PRIMARY KEY, title TEXT NOT NULL, updated_at INTEGER NOT NULL DEFAULT 0)");
		db.run(
			"CREATE TABLE session_recaps (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, cwd TEXT NOT NULL, recap TEXT NOT NULL, created_at INTEGER NOT NULL DEFAULT 0)",
		);
		db.run("INSERT INTO session_titles VALUES (?, 'Flamingo cache (from history.db)', 1)", [ARCHIVED]);
		db.run(
			"INSERT INTO session_recaps(session_id, cwd, recap, created_at) VALUES (?, '/home/dev/shop', 'first recap', 1), (?, '/home/dev/shop', 'recap: rounding fixed by working in cents', 2)",
			[PARENT, PARENT],
		);
	}
	const bytes = db.export();
	db.close();
	return bytes;
}

async function agentDb(): Promise<Uint8Array> {
	const SQL = await loadEngine();
	const db = new SQL.Database();
	db.run(
		"CREATE TABLE stage1_outputs (thread_id TEXT PRIMARY KEY, source_updated_at INTEGER NOT NULL, raw_memory TEXT NOT NULL, rollout_summary TEXT NOT NULL, rollout_slug TEXT, generated_at INTEGER NOT NULL)",
	);
	db.run("INSERT INTO stage1_outputs VALUES (?, 1, 'raw', 'rollout: the flamingo cache was retired', 'flamingo', 1)", [ARCHIVED]);
	const bytes = db.export();
	db.close();
	return bytes;
}

async function list(home: string) {
	const host = new HostIndex({ agentDir: join(home, ".pi", "agent"), indexPath: join(home, "index.db"), env: { HOME: home } });
	const reply = JSON.parse((await runSessionSearch(host, { action: "list", limit: 10 })).text);
	host.close();
	return { reply, byId: (id: string) => reply.results.find((r: { session_id: string }) => r.session_id === id) };
}

describe("omp's history.db and agent.db", () => {
	it("fill title and summary, newest recap first, the rollout summary where there is no recap", async () => {
		const home = tempDir("omp-meta");
		const store = ompStore(home);
		writeFileSync(join(store.agent, "history.db"), await historyDb(true));
		writeFileSync(join(store.agent, "agent.db"), await agentDb());
		const { reply, byId } = await list(home);
		expect(byId(PARENT)).toMatchObject({ title: "Cart rounding bug", summary: "recap: rounding fixed by working in cents" });
		expect(byId(ARCHIVED)).toMatchObject({ title: "Flamingo cache (from history.db)", summary: "rollout: the flamingo cache was retired" });
		expect(reply.summaryMayBeStale).toBeUndefined();
	});

	it("say a summary may be stale when a -wal file holds rows sql.js cannot read", async () => {
		const home = tempDir("omp-wal");
		const store = ompStore(home);
		writeFileSync(join(store.agent, "history.db"), await historyDb(true));
		writeFileSync(join(store.agent, "history.db-wal"), new Uint8Array(4096));
		expect((await list(home)).reply.summaryMayBeStale).toBe(true);
	});

	it("never fail the search when missing, of an older schema, or not a database", async () => {
		for (const content of [undefined, await historyDb(false), new TextEncoder().encode("locked garbage")]) {
			const home = tempDir("omp-old");
			const store = ompStore(home);
			if (content) writeFileSync(join(store.agent, "history.db"), content);
			const { byId } = await list(home);
			expect(byId(PARENT).title).toBe("Cart rounding bug");
			expect(byId(ARCHIVED).title).toBe("the archived talk about the flamingo cache");
		}
	});
});

describe("the tool's scope", () => {
	it("browses top-level sessions by default and sub-agents on request; a query includes them naming their parent", async () => {
		const home = tempDir("omp-scope");
		ompStore(home);
		const opened = new HostIndex({ agentDir: join(home, ".pi", "agent"), indexPath: join(home, "index.db"), env: { HOME: home } });
		const browse = async (scope?: "top" | "all") =>
			JSON.parse((await runSessionSearch(opened, { scope })).text)
				.sessions.map((s: { kind: string }) => s.kind)
				.sort();
		expect(await browse()).toEqual(["archived", "session"]);
		expect(await browse("all")).toEqual(["archived", "session", "subagent"]);
		const hit = JSON.parse((await runSessionSearch(opened, { query: "pelican formatter" })).text).results[0];
		expect(hit).toMatchObject({ kind: "subagent", spawnedBySessionId: PARENT });
		expect(JSON.parse((await runSessionSearch(opened, { query: "pelican formatter", scope: "top" })).text).results).toEqual([]);
		opened.close();
	});
});
