/**
 * `lookback mcp` with redaction: a session holding planted secrets of every kind, searched, read and listed
 * through the real server: by default (and with `redact: true`) replies carry none of them and count what was
 * replaced; `redact: false`, or a server started with LOOKBACK_REDACT=0, hands them over as they are.
 */

import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { PLANTED } from "../secrets.js";
import { agentDir, call, json, type Server, startServer } from "./mcp-client.js";

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) await s.close();
});

/** The sample sessions and one more whose every message holds the planted secrets. */
function withSecrets(): { dir: string; id: string } {
	const dir = agentDir();
	const sm = newSession(join(dir, "sessions"), "/home/dev/vault-demo");
	const all = PLANTED.map((p) => p.text).join("\n");
	sm.appendMessage(userMessage(`wombat credentials:\n${all}`));
	sm.appendMessage(
		assistantMessage(`wombat noted:\n${all}`, [{ name: "bash", arguments: { command: `printf '%s' "${PLANTED[0].text}"` } }]),
	);
	sm.appendMessage(toolResult("bash", `wombat output:\n${all}`));
	return { dir, id: sm.getSessionId() };
}

/** A server whose first index is done: a search before then answers from what is indexed so far. */
async function readyServer(dir: string, env?: Record<string, string>): Promise<Server> {
	const s = await startServer(dir, { env });
	servers.push(s);
	for (let i = 0; i < 600; i++) {
		if (json(await call(s, "index_status")).state === "ready") return s;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error("the first index did not finish");
}

const leaked = (text: string) => PLANTED.filter((p) => text.includes(p.secret)).map((p) => p.kind);

describe("lookback mcp redaction", () => {
	it("replies without the secrets by default and when a call asks, and with them only on redact: false", async () => {
		const { dir, id } = withSecrets();
		const s = await readyServer(dir);
		const calls: [string, Record<string, unknown>][] = [
			["search_sessions", { query: "wombat", detail: "full" }],
			["read_session", { sessionId: id }],
			["read_session", { sessionId: id, offset: 0, limit: 10 }],
			["list_sessions", { project: "vault-demo" }],
		];
		for (const [tool, args] of calls) {
			const plain = await call(s, tool, { ...args, redact: false });
			expect(plain.isError).toBe(false);
			expect(leaked(plain.text).length, `${tool} with redact: false shows the secrets`).toBeGreaterThan(0);
			for (const redacted of [await call(s, tool, args), await call(s, tool, { ...args, redact: true })]) {
				expect(leaked(redacted.text), `${tool} by default or with redact`).toEqual([]);
				expect(leaked(JSON.stringify(redacted.value))).toEqual([]);
				expect(json(redacted).redactions).toEqual(expect.any(Object));
				expect(redacted.text).toContain("[REDACTED:");
			}
		}
		// The ids a next call passes back are left as they are.
		const found = json(await call(s, "search_sessions", { query: "wombat", redact: true })).results as {
			sessionId: string;
			path: string;
		}[];
		expect(found[0].sessionId).toBe(id);
		expect(json(await call(s, "read_session", { sessionId: found[0].path, redact: true })).mode).toBe("read");
	});

	it("hands every reply over as it is on a server started with LOOKBACK_REDACT=0, unless a call says redact: true", async () => {
		const { dir, id } = withSecrets();
		const s = await readyServer(dir, { LOOKBACK_REDACT: "0" });
		expect(leaked((await call(s, "read_session", { sessionId: id })).text).length).toBeGreaterThan(0);
		expect(leaked((await call(s, "search_sessions", { query: "wombat" })).text).length).toBeGreaterThan(0);
		expect(leaked((await call(s, "read_session", { sessionId: id, redact: true })).text)).toEqual([]);
		const { tools } = await s.client.listTools();
		for (const name of ["search_sessions", "read_session", "list_sessions"])
			expect(tools.find((t) => t.name === name)?.inputSchema.properties).toMatchObject({ redact: { type: "boolean" } });
	});
});
