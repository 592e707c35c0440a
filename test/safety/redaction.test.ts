/**
 * Redaction of a realistic session: 47 secrets as people paste them and tools print them, and 25 near misses
 * (test/safety/secrets-47.ts). At most 2 secrets may come through and at most 1 near miss be hidden; the
 * punctuation and the rest of a command around a secret survive. Held for the text itself (also with its lines
 * folded into spaces and cut short, as a search snippet has them), for a Markdown export of a Pi session that
 * holds them all, and for what a model gets over MCP by default; the command line shows a person their own text
 * as it is.
 */

import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadRedaction, redactText } from "../../src/core/index.js";
import { cliInProcess } from "../cli-in-process.js";
import { call, agentDir as mcpAgentDir, type Server, startServer } from "../mcp/mcp-client.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { NEAR_MISSES, SECRETS } from "./secrets-47.js";

const MAX_LEAKS = 2;
const MAX_HIDDEN = 1;

const leaks = (text: string) => SECRETS.filter((s) => text.includes(s.secret)).map((s) => s.name);

/** A Pi session holding every secret where it would stand: said by the person, run as a command, printed by a tool. */
function sessionWithSecrets(sessions: string): string {
	const sm = newSession(sessions, "/home/dev/vault-demo");
	sm.appendMessage(userMessage("wombat: set up the deploy, here is what I have"));
	for (const [i, s] of SECRETS.entries()) {
		if (s.at === "user") sm.appendMessage(userMessage(`wombat ${i}: ${s.text}`));
		else if (s.at === "command") {
			sm.appendMessage(assistantMessage(`wombat step ${i}`, [{ name: "bash", arguments: { command: s.text } }]));
			sm.appendMessage(toolResult("bash", "ok"));
		} else {
			sm.appendMessage(assistantMessage(`wombat look ${i}`, [{ name: "bash", arguments: { command: "cat config" } }]));
			sm.appendMessage(toolResult("bash", s.text));
		}
	}
	sm.appendMessage(assistantMessage(`wombat near misses:\n${NEAR_MISSES.map((n) => n.text).join("\n")}`));
	return sm.getSessionId();
}

describe("redaction of 47 secrets and 25 near misses", () => {
	beforeAll(() => loadRedaction());

	it("the fixture is what the issue describes", () => {
		expect(SECRETS).toHaveLength(47);
		expect(NEAR_MISSES).toHaveLength(25);
	});

	it(`lets at most ${MAX_LEAKS} secrets through, whole, folded into one line, or cut short as a snippet`, () => {
		const through = new Set<string>();
		for (const s of SECRETS) {
			const folded = s.text.replace(/\n/g, " ");
			const cut = folded.slice(0, folded.indexOf(s.secret) + s.secret.length + 5);
			for (const text of [s.text, folded, cut]) if (redactText(text).includes(s.secret)) through.add(s.name);
		}
		expect([...through].length, [...through].join(", ")).toBeLessThanOrEqual(MAX_LEAKS);
	});

	it(`hides at most ${MAX_HIDDEN} near miss (placeholders, AWS's documented example key, hashes, public keys)`, () => {
		const hidden = NEAR_MISSES.filter((n) => redactText(n.text) !== n.text).map((n) => `${n.name}: ${redactText(n.text)}`);
		expect(hidden.length, hidden.join("\n")).toBeLessThanOrEqual(MAX_HIDDEN);
		// AWS's documented example key is left alone on purpose (README says so).
		expect(redactText("AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).not.toContain("[REDACTED:");
	});

	it("keeps the punctuation and the rest of a command around a secret", () => {
		const lost: string[] = [];
		for (const s of SECRETS) {
			const out = redactText(s.text);
			for (const kept of s.keeps ?? []) if (!out.includes(kept)) lost.push(`${s.name}: ${kept} (in ${out})`);
		}
		expect(lost, lost.join("\n")).toEqual([]);
		expect(redactText(`here is my token ${SECRETS[2].secret}, use it`)).toBe("here is my token [REDACTED:github-token], use it");
	});

	it("a Markdown export of the session holds at most 2; the command line reads the person their own text as it is", async () => {
		const dir = join(mcpAgentDir(), "..", "pi");
		const id = sessionWithSecrets(join(dir, "sessions"));
		const md = await cliInProcess(["export", id, "--agent-dir", dir]);
		expect(md.code).toBe(0);
		expect(leaks(md.stdout).length, leaks(md.stdout).join(", ")).toBeLessThanOrEqual(MAX_LEAKS);
		expect(md.stdout).toContain("[REDACTED:");
		for (const n of NEAR_MISSES.slice(3, 8)) expect(md.stdout).toContain(n.text);
		// A person's own reading: `read` and `search` show the text unredacted, as does an export they ask to keep it.
		const read = await cliInProcess(["read", id, "--full", "--json", "--agent-dir", dir]);
		expect(leaks(read.stdout).length).toBeGreaterThan(40);
		expect(read.stdout).not.toContain("[REDACTED:");
		const search = await cliInProcess(["search", "wombat", "--json", "--agent-dir", dir]);
		expect(search.stdout).not.toContain("[REDACTED:");
		const kept = await cliInProcess(["export", id, "--no-redact", "--agent-dir", dir]);
		expect(leaks(kept.stdout)).toHaveLength(SECRETS.length);
	});
});

describe("what a model gets over MCP", () => {
	const servers: Server[] = [];
	afterEach(async () => {
		for (const s of servers.splice(0)) await s.close();
	});

	it("is redacted by default: a read and a search of the session (snippets fold a key's lines) hold at most 2", async () => {
		const dir = mcpAgentDir();
		const id = sessionWithSecrets(join(dir, "sessions"));
		const s = await startServer(dir);
		servers.push(s);
		const read = await call(s, "read_session", { sessionId: id, offset: 0, limit: 50 });
		const more = await call(s, "read_session", { sessionId: id, offset: 50, limit: 50 });
		const text = read.text + more.text;
		expect(leaks(text).length, leaks(text).join(", ")).toBeLessThanOrEqual(MAX_LEAKS);
		expect(text).toContain("[REDACTED:");
		for (const query of ["OPENSSH PRIVATE KEY", "RSA PRIVATE KEY", "AccountKey", "auths ghcr", "wombat"]) {
			const found = await call(s, "search_sessions", { query, detail: "full" });
			expect(found.isError).toBe(false);
			expect(leaks(found.text), query).toEqual([]);
		}
		// Asked for as it is, it comes as it is.
		const plain = await call(s, "read_session", { sessionId: id, offset: 0, limit: 50, redact: false });
		expect(leaks(plain.text).length).toBeGreaterThan(20);
	});
});
