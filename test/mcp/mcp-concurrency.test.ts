/** Several `lookback mcp` servers on one index (a client that starts one per window) while another process writes to it. */

import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SAMPLE } from "../helpers.js";
import { agentDir, call, json, type Server, startServer, untilReady } from "./mcp-client.js";

const WRITER = join(import.meta.dirname, "..", "reliability", "index-writer.mjs");
const ROUNDS = 8;

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) await s.close();
});

type Hit = { sessionId: string };

describe("lookback mcp with other processes", () => {
	it("two servers answer right while a third process indexes into the same file", async () => {
		const dir = agentDir();
		const indexPath = join(dir, "lookback", "index.db");
		const a = await startServer(dir);
		const b = await startServer(dir);
		servers.push(a, b);
		// Both servers index the sample sessions first (they race for the writer's lock, and both must come through);
		// a search answers at once from what is indexed so far, so the first index is waited for here.
		await Promise.all([a, b].map((s) => untilReady(s)));
		const first = await Promise.all([a, b].map((s) => call(s, "search_sessions", { query: "RabbitMQ" })));
		for (const r of first) expect((json(r).results as Hit[])[0].sessionId).toBe(SAMPLE.branched);

		const writer = spawn(process.execPath, [WRITER, indexPath, join(dir, "sessions"), "w", String(ROUNDS)], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let err = "";
		writer.stderr.on("data", (c) => (err += c));
		let running = true;
		const exited = new Promise<number | null>((resolve) =>
			writer.on("exit", (code) => {
				running = false;
				resolve(code);
			}),
		);
		const answered = { ok: 0, busy: 0 };
		while (running) {
			const replies = await Promise.all([a, b].map((s) => call(s, "search_sessions", { query: "RabbitMQ" })));
			for (const r of replies) {
				if (r.isError) {
					// The only error allowed is a busy index, said in one line.
					expect(r.text).toMatch(/^lookback: [^\n]*busy[^\n]*$/);
					answered.busy++;
					continue;
				}
				expect((json(r).results as Hit[])[0].sessionId).toBe(SAMPLE.branched);
				answered.ok++;
			}
		}
		expect(await exited, err).toBe(0);
		expect(answered.ok).toBeGreaterThan(0);
		// Every round the writer added is found by both servers.
		for (const s of [a, b]) {
			const last = json(await call(s, "search_sessions", { query: `markerwx${ROUNDS - 1}` }));
			expect((last.results as Hit[]).map((h) => h.sessionId)).toEqual([`w-${ROUNDS - 1}-0`]);
			const status = json(await call(s, "index_status"));
			expect(status.sessions).toBe(10 + ROUNDS);
		}
	});

	it("answers a one-line tool error while another process holds the index, and answers again once it is free", async () => {
		const dir = agentDir();
		const indexPath = join(dir, "lookback", "index.db");
		const s = await startServer(dir);
		servers.push(s);
		expect(json(await call(s, "search_sessions", { query: "RabbitMQ" })).total).toBe(1);
		// A live process that holds `reserved` and `pending`, as a writer about to commit does: no reader may start.
		const holder = spawn("sleep", ["120"]);
		try {
			const stat = readFileSync(`/proc/${holder.pid}/stat`, "utf8");
			const start = stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[19];
			const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim().slice(0, 8);
			for (const name of ["reserved", "pending"]) writeFileSync(`${indexPath}.locks/${name}`, `${holder.pid} ${start} feedface ${boot}`);
			const busy = await call(s, "search_sessions", { query: "RabbitMQ" });
			expect(busy.isError).toBe(true);
			expect(busy.text).toMatch(/^lookback: [^\n]*busy[^\n]*$/);
		} finally {
			holder.kill("SIGKILL");
		}
		// The holder died: its lock files are removed by whoever finds them, and the server answers again.
		await new Promise<void>((resolve) => holder.on("exit", () => resolve()));
		expect((json(await call(s, "search_sessions", { query: "RabbitMQ" })).results as Hit[])[0].sessionId).toBe(SAMPLE.branched);
	});
});
