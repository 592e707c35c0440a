/** A small oh-my-pi store written by hand in omp's format (no omp API writes files for us outside Bun). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "fflate";
import { tempDir } from "../helpers.js";

export const PARENT = "01a30000-0000-7000-8000-00000000aaaa";
export const ARCHIVED = "01a20000-0000-7000-8000-00000000bbbb";

/** omp's line 1: a fixed-width title slot of 256 bytes including the newline. */
export function titleSlot(title: string): string {
	const body = JSON.stringify({ type: "title", v: 1, title, updatedAt: "2026-11-10T10:00:00.000Z", source: "user", pad: "" });
	return `${body.slice(0, -2)}${" ".repeat(255 - Buffer.byteLength(body))}"}\n`;
}

const line = (o: object) => `${JSON.stringify(o)}\n`;
const user = (id: string, parentId: string | null, text: string) =>
	line({
		type: "message",
		id,
		parentId,
		timestamp: "2026-11-10T10:00:01.000Z",
		message: { role: "user", content: [{ type: "text", text }], attribution: "user", timestamp: 0 },
	});

export function ompStore(home = tempDir("omp-home")) {
	const agent = join(home, ".omp", "agent");
	const project = join(agent, "sessions", "-proj-shop");
	mkdirSync(project, { recursive: true });
	const stem = `2026-11-10T10-00-00-000Z_${PARENT}`;
	const parentFile = join(project, `${stem}.jsonl`);
	writeFileSync(
		parentFile,
		titleSlot("Cart totals") +
			line({
				type: "session",
				version: 3,
				id: PARENT,
				timestamp: "2026-11-10T10:00:00.000Z",
				cwd: "/home/dev/shop",
				title: "Cart totals",
			}) +
			line({ type: "model_change", id: "00000001", parentId: null, timestamp: "2026-11-10T10:00:00.500Z", model: "fake/fake-1" }) +
			user("00000002", "00000001", "why are the cart totals off by one cent") +
			line({
				type: "message",
				id: "00000003",
				parentId: "00000002",
				timestamp: "2026-11-10T10:00:02.000Z",
				message: { role: "developer", content: [{ type: "text", text: "harness note about rounding" }], timestamp: 0 },
			}) +
			line({
				type: "message",
				id: "00000004",
				parentId: "00000003",
				timestamp: "2026-11-10T10:00:03.000Z",
				message: { role: "pythonExecution", code: "print(round(2.675, 2))", output: "2.67 bankers rounding", timestamp: 0 },
			}) +
			line({
				type: "message",
				id: "0000000a",
				parentId: "00000004",
				timestamp: "2026-11-10T10:00:03.500Z",
				message: {
					role: "assistant",
					content: [
						{
							type: "toolCall",
							id: "call_t1",
							name: "task",
							arguments: { agents: [{ name: "explore-1", task: "find every place that rounds money" }] },
						},
					],
					provider: "anthropic",
					model: "claude-sonnet-4-5",
					// The usage omp records on an answer (test/core/usage.test.ts sums it).
					usage: {
						input: 1200,
						output: 80,
						cacheRead: 3000,
						cacheWrite: 400,
						totalTokens: 4680,
						cost: { input: 0.0036, output: 0.0012, cacheRead: 0.0009, cacheWrite: 0.0015, total: 0.0072 },
					},
					timestamp: 0,
				},
			}) +
			line({
				type: "title_change",
				id: "00000005",
				parentId: "0000000a",
				timestamp: "2026-11-10T10:00:04.000Z",
				title: "Cart rounding bug",
				previousTitle: "Cart totals",
				source: "user",
			}) +
			line({
				type: "custom",
				customType: "session_exit",
				id: "00000006",
				parentId: "00000005",
				timestamp: "2026-11-10T10:00:05.000Z",
				data: {},
			}),
	);
	mkdirSync(join(project, stem));
	writeFileSync(
		join(project, stem, "explore-1.jsonl"),
		line({
			type: "session",
			version: 3,
			id: "01a30000-0000-7000-8000-00000000cccc",
			timestamp: "2026-11-10T10:00:02.000Z",
			cwd: "/home/dev/shop",
		}) +
			line({
				type: "session_init",
				id: "10000001",
				parentId: null,
				timestamp: "2026-11-10T10:00:02.000Z",
				task: "find every place that rounds money",
				tools: ["read"],
			}) +
			user("10000002", "10000001", "search for Math.round in src/cart/totals.ts and the pelican formatter"),
	);
	const archive = join(agent, "archive", "sessions", "2026-09");
	mkdirSync(archive, { recursive: true });
	const old =
		line({ type: "session", version: 3, id: ARCHIVED, timestamp: "2026-09-01T10:00:00.000Z", cwd: "/home/dev/shop" }) +
		user("20000001", null, "the archived talk about the flamingo cache");
	writeFileSync(join(archive, `2026-09-01T10-00-00-000Z_${ARCHIVED}.jsonl.gz`), gzipSync(new TextEncoder().encode(old)));
	return { home, agent, parentFile };
}
