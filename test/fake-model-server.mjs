// A fake OpenAI-compatible chat server on 127.0.0.1 for driving the real `pi` binary in tests.
// The last user message "CALL <tool> <json>" makes it answer with that tool call; after a tool result it
// answers "TOOL RESULT: <text>". Every request body is kept in `requests` (to check the system prompt);
// `onRequest`, when set, sees each one before it is answered (to look at the machine while Pi waits for it).
import http from "node:http";

const textOf = (c) => (typeof c === "string" ? c : (c || []).map((p) => p.text || "").join(""));

/** @returns {Promise<{ url: string, requests: any[], onRequest?: (body: any) => void, close: () => Promise<void> }>} */
export async function startFakeModel() {
	const requests = [];
	const model = {};
	const server = http.createServer((req, res) => {
		let body = "";
		req.on("data", (c) => (body += c));
		req.on("end", () => {
			const p = JSON.parse(body || "{}");
			requests.push(p);
			model.onRequest?.(p);
			const last = (p.messages || []).at(-1) || {};
			let text = "Hello from the fake server.";
			let call = null;
			if (last.role === "tool") text = `TOOL RESULT: ${textOf(last.content).slice(0, 200)}`;
			else {
				const m = /CALL (\S+) (\{.*\})/s.exec(textOf(last.content));
				if (m) call = { id: `call_${requests.length}`, name: m[1], args: m[2] };
			}
			const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: p.model };
			const send = (o) => res.write(`data: ${JSON.stringify({ ...base, ...o })}\n\n`);
			res.writeHead(200, { "content-type": "text/event-stream" });
			send({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
			if (call) {
				send({
					choices: [
						{
							index: 0,
							delta: { tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.name, arguments: call.args } }] },
							finish_reason: null,
						},
					],
				});
				send({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
			} else {
				send({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
				send({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
			}
			send({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
			res.end("data: [DONE]\n\n");
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return Object.assign(model, { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) });
}

/** models.json for Pi pointing at the fake server. */
export function fakeModelsJson(url) {
	return JSON.stringify({
		providers: {
			fake: {
				baseUrl: url,
				api: "openai-completions",
				apiKey: "dummy-key",
				compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
				models: [{ id: "fake-model", name: "Fake Model", contextWindow: 32000, maxTokens: 1024 }],
			},
		},
	});
}
