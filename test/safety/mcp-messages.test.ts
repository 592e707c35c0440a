/**
 * `lookback mcp` given what a client (or a model behind it) should never send: a message over 10 MiB, a line that
 * is no JSON, JSON that is no JSON-RPC. Each is answered with a JSON-RPC error (to its id when its start names one),
 * the server goes on, and the calls sent before and after it are answered.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { agentDir, CLI } from "../mcp/mcp-client.js";

let child: ChildProcess | undefined;
afterEach(async () => {
	if (!child || child.exitCode !== null) return;
	const exited = new Promise((resolve) => child?.once("exit", resolve));
	child.stdin?.end();
	await exited;
});

/** The server on raw stdio: lines written as they are, answers collected by id. */
function rawServer() {
	const dir = agentDir();
	child = spawn(process.execPath, [CLI, "mcp", "--agent-dir", dir], {
		cwd: tempDir("mcp-cwd"),
		env: { HOME: "/nonexistent-lookback-home", PATH: process.env.PATH ?? "" },
		stdio: ["pipe", "pipe", "pipe"],
	});
	const answers: Record<string, unknown>[] = [];
	let out = "";
	child.stdout?.on("data", (c: Buffer) => {
		out += c.toString();
		for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
			answers.push(JSON.parse(out.slice(0, nl)));
			out = out.slice(nl + 1);
		}
	});
	const write = (line: string) =>
		new Promise<void>((resolve) => (child?.stdin?.write(`${line}\n`) ? resolve() : child?.stdin?.once("drain", resolve)));
	const answerTo = async (id: unknown, timeoutMs = 60_000) => {
		for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
			const a = answers.find((m) => m.id === id);
			if (a) return a;
		}
		throw new Error(`no answer to ${JSON.stringify(id)}; got ${JSON.stringify(answers).slice(0, 500)}`);
	};
	return { write, answerTo, answers };
}

const request = (id: number | string, method: string, params: object = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const search = (id: number, query: string) => request(id, "tools/call", { name: "search_sessions", arguments: { query } });

describe("lookback mcp and messages it cannot take", () => {
	it("answers an 11 MiB message and malformed lines with JSON-RPC errors, and goes on with the calls around them", async () => {
		const s = rawServer();
		await s.write(request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }));
		await s.answerTo(1);
		await s.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
		// A call in flight, then the oversized one (its id first, as clients write them), then more calls.
		await s.write(search(2, "RabbitMQ"));
		await s.write(
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_sessions","arguments":{"query":"${"x".repeat(11 * 1024 * 1024)}"}}}`,
		);
		await s.write("this is not json");
		await s.write('{"jsonrpc":"2.0","id":"five","what":"no method"}');
		await s.write(search(6, "RabbitMQ"));
		const two = await s.answerTo(2);
		expect(two.result).toBeDefined();
		expect(await s.answerTo(3)).toMatchObject({
			jsonrpc: "2.0",
			id: 3,
			error: { code: -32600, message: expect.stringMatching(/over \d+ bytes/) },
		});
		expect(s.answers.find((a) => a.id === null && (a.error as { code: number })?.code === -32700)).toBeDefined();
		expect(await s.answerTo("five")).toMatchObject({ error: { code: -32600 } });
		const six = (await s.answerTo(6)) as { result: { content: { text: string }[] } };
		expect(six.result.content[0].text).toContain("RabbitMQ");
		expect(child?.exitCode).toBeNull();
	}, 120_000);
});
