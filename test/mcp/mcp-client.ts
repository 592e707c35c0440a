/** The SDK's own client over stdio against the built `dist/cli.js mcp`, as an MCP client runs it. */

import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FIXTURES, tempDir } from "../helpers.js";

export const CLI = join(import.meta.dirname, "..", "..", "dist", "cli.js");

/** A home without omp sessions, so the machine's own never leak into the tests. */
const HOME_DIR = "/nonexistent-lookback-home";

/** An agent dir holding a copy of the sample sessions (its index goes to `<dir>/lookback/index.db`). */
export function agentDir(): string {
	const dir = join(tempDir("mcp-agent"), "agent");
	mkdirSync(dir, { recursive: true });
	cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
	return dir;
}

export interface Server {
	client: Client;
	transport: StdioClientTransport;
	stderr: () => string;
	close: () => Promise<void>;
}

/** Start `lookback mcp` (of `cli`, default the built one) on an agent dir, in `cwd` (the working directory whose recent sessions it leaves out). */
export async function startServer(
	dir: string,
	options: { cwd?: string; extraArgs?: string[]; env?: Record<string, string>; cli?: string } = {},
): Promise<Server> {
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [options.cli ?? CLI, "mcp", "--agent-dir", dir, ...(options.extraArgs ?? [])],
		cwd: options.cwd ?? tempDir("mcp-cwd"),
		env: { HOME: HOME_DIR, PATH: process.env.PATH ?? "", ...(options.env ?? {}) },
		stderr: "pipe",
	});
	let stderr = "";
	transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
	const client = new Client({ name: "lookback-test", version: "1.0.0" });
	await client.connect(transport);
	return { client, transport, stderr: () => stderr, close: () => client.close() };
}

export interface Called {
	isError: boolean;
	text: string;
	/** The structuredContent (undefined on an error). */
	value: Record<string, unknown> | undefined;
}

export async function call(server: Server, name: string, args: Record<string, unknown> = {}): Promise<Called> {
	const result = await server.client.callTool({ name, arguments: args });
	const content = result.content as { type: string; text: string }[];
	return {
		isError: result.isError === true,
		text: content[0]?.text ?? "",
		value: result.structuredContent as Record<string, unknown> | undefined,
	};
}

/**
 * Wait until the server's index is ready (its first index, which starts with the server, done): a test that asks
 * for one session by id needs it, where a search answers at once from what is indexed so far. Bounded by polls.
 */
export async function untilReady(server: Server, polls = 600): Promise<void> {
	for (let i = 0; i < polls; i++) {
		const status = json(await call(server, "index_status"));
		if (status.state === "ready" && status.lastSyncReport) return;
		if (status.state === "failed") throw new Error(`the index failed: ${JSON.stringify(status)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error(`the index was not ready after ${polls} polls`);
}

/** The reply's JSON for the model, parsed (a successful call's text is the JSON of its structuredContent). */
export function json(called: Called): Record<string, unknown> {
	if (called.isError) throw new Error(`the call failed: ${called.text}`);
	return JSON.parse(called.text) as Record<string, unknown>;
}
