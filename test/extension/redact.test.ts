/**
 * What leaves lookback from inside Pi carries no secret: the session_search tool's reply when asked (the
 * `redact` parameter, or LOOKBACK_REDACT=1), the overlay's excerpt, its summary hand-off (the transcript sent to
 * the model and the summary that comes back) and its export. Sessions hold planted secrets of every kind.
 */

import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runAction } from "../../src/extension/handoff.js";
import { overlayResults } from "../../src/extension/overlay-results.js";
import { runSessionSearch } from "../../src/extension/run-tool.js";
import { openNodeIndex } from "../../src/node/open.js";
import { settledIndex, tempDir } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { PLANTED } from "../secrets.js";

const leaked = (text: string) => PLANTED.filter((p) => text.includes(p.secret)).map((p) => p.kind);
const ALL = PLANTED.map((p) => p.text).join("\n");

async function agent() {
	const agentDir = join(tempDir("agent"), "agent");
	const sm = newSession(join(agentDir, "sessions"), "/home/dev/vault-demo");
	sm.appendMessage(userMessage(`quokka credentials:\n${ALL}`));
	sm.appendMessage(assistantMessage(`quokka noted:\n${ALL}`, [{ name: "bash", arguments: { command: PLANTED[0].text } }]));
	sm.appendMessage(toolResult("bash", `quokka output:\n${ALL}`));
	const opened = await openNodeIndex({ agentDir, env: { HOME: join(agentDir, "home") } });
	await opened.index.sync(opened.source);
	// The tool's calls as its indexer process answers them, over this index (synced above).
	const local = settledIndex(opened);
	return { agentDir, opened, local, id: sm.getSessionId() };
}

/** A context as the overlay's actions get it: the editor, notices, a status line, confirmations. */
function uiContext(extra: object = {}) {
	const state = { editor: "", notes: [] as string[] };
	const ctx = {
		ui: {
			getEditorText: () => state.editor,
			setEditorText: (t: string) => (state.editor = t),
			notify: (t: string) => state.notes.push(t),
			setStatus: () => {},
			confirm: async () => false,
		},
		...extra,
	};
	return { state, ctx: ctx as unknown as Parameters<typeof runAction>[2] };
}

afterEach(() => {
	delete process.env.LOOKBACK_REDACT;
});

describe("session_search redaction", () => {
	it("replies without the secrets by default and with redact: true, with them on redact: false or under LOOKBACK_REDACT=0", async () => {
		const { local, id } = await agent();
		for (const params of [{ query: "quokka", detail: "full" }, { sessionId: id }, { sessionId: id, query: "quokka" }, {}] as const) {
			const plain = await runSessionSearch(local, { ...params, redact: false });
			if ("sessionId" in params || "query" in params) expect(leaked(plain.text).length, JSON.stringify(params)).toBeGreaterThan(0);
			for (const redacted of [await runSessionSearch(local, params), await runSessionSearch(local, { ...params, redact: true })]) {
				expect(leaked(redacted.text), JSON.stringify(params)).toEqual([]);
				expect(leaked(redacted.details.lines.join("\n"))).toEqual([]);
				expect(JSON.parse(redacted.text).redactions).toEqual(expect.any(Object));
			}
		}
		process.env.LOOKBACK_REDACT = "0";
		expect(leaked((await runSessionSearch(local, { sessionId: id })).text).length).toBeGreaterThan(0);
		expect(leaked((await runSessionSearch(local, { sessionId: id, redact: true })).text)).toEqual([]);
	});
});

describe("the overlay's hand-offs", () => {
	it("inserts an excerpt without the secrets", async () => {
		const { opened } = await agent();
		const row = overlayResults(opened.index, "quokka").rows[0];
		expect(row).toBeDefined();
		const { state, ctx } = uiContext();
		await runAction(opened, { kind: "excerpt", row }, ctx);
		expect(state.editor).toContain("From an earlier session");
		expect(state.editor).toContain("[REDACTED:");
		expect(leaked(state.editor)).toEqual([]);
	});

	it("sends the model a transcript without the secrets, and inserts its summary without the one it echoes", async () => {
		const { opened } = await agent();
		const bodies: string[] = [];
		const echoed = PLANTED.find((p) => p.kind === "github-token")!;
		const model = createServer((req, res) => {
			let body = "";
			req.on("data", (c) => (body += c));
			req.on("end", () => {
				bodies.push(body);
				const chunk = (o: object) =>
					res.write(`data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: "m", ...o })}\n\n`);
				res.writeHead(200, { "content-type": "text/event-stream" });
				chunk({
					choices: [{ index: 0, delta: { role: "assistant", content: `The goal: deploy with ${echoed.text}.` }, finish_reason: null }],
				});
				chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
				res.end("data: [DONE]\n\n");
			});
		});
		await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
			const { state, ctx } = uiContext({
				model: {
					id: "fake-model",
					name: "fake",
					api: "openai-completions",
					provider: "fake",
					baseUrl,
					reasoning: false,
					input: ["text"],
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
					contextWindow: 100_000,
					maxTokens: 1_000,
				},
				modelRegistry: { getApiKeyAndHeaders: async () => ({ ok: true, apiKey: "dummy-key" }) },
			});
			const row = overlayResults(opened.index, "quokka").rows[0];
			await runAction(opened, { kind: "summary", row }, ctx);
			expect(bodies).toHaveLength(1);
			expect(bodies[0]).toContain("quokka");
			expect(leaked(bodies[0])).toEqual([]);
			expect(state.editor).toContain("Summary of an earlier session");
			expect(state.editor).toContain("The goal: deploy with");
			expect(leaked(state.editor)).toEqual([]);
		} finally {
			await new Promise((resolve) => model.close(resolve));
		}
	});

	it("exports the session as HTML and Markdown beside the index, redacted, and says where", async () => {
		const { opened, agentDir } = await agent();
		const row = overlayResults(opened.index, "quokka").rows[0];
		const { state, ctx } = uiContext();
		await runAction(opened, { kind: "export", row }, ctx);
		const dir = join(agentDir, "lookback", "exports");
		const files = readdirSync(dir).sort();
		expect(files.map((f) => f.replace(/^.*\./, ""))).toEqual(["html", "md"]);
		for (const f of files) expect(leaked(readFileSync(join(dir, f), "utf8"))).toEqual([]);
		expect(state.notes.join("\n")).toMatch(/exported ".*" \(\d+ secrets redacted\) to .*\.html and .*\.md/);
	});
});
