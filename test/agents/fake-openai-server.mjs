// A fake OpenAI-compatible chat server on 127.0.0.1 for driving the real Qwen Code, Copilot, Continue and Cline CLIs
// in tests (`POST …/chat/completions`, streamed or not; `GET …/models`). The last user text decides the answer:
// "CALL <tool> <json>" calls any tool by the name the CLI gave it (once: after the tool's result it answers
// "TOOL RESULT: <output>"), "CHILD …" (a sub-agent's prompt) gets "Child agent here: …"; a request whose system
// or user text asks for a title gets "Quokka title <first words>". Every request body is kept in `requests`.
import http from "node:http";

const textOf = (content) =>
	typeof content === "string"
		? content
		: Array.isArray(content)
			? content.map((p) => (typeof p === "string" ? p : p?.text || "")).join("")
			: "";

/** The answer to one request: text, or one tool call. */
function decide(p, id) {
	const messages = Array.isArray(p.messages) ? p.messages : [];
	const system = messages
		.filter((m) => m.role === "system" || m.role === "developer")
		.map((m) => textOf(m.content))
		.join("\n");
	const last = messages.at(-1) || {};
	const userText = textOf([...messages].reverse().find((m) => m.role === "user")?.content);
	// The text the person typed: after the CLI's own wrappers, the line that holds a command word if any.
	const words = /(?:CALL|CHILD)\b.*$/m.exec(userText)?.[0] ?? userText.trim();
	const tools = Array.isArray(p.tools) ? p.tools : [];
	if (tools.length === 0 && /\btitle\b/i.test(`${system}\n${userText}`) && !/^CHILD /m.test(userText))
		return {
			text: `Quokka title ${words
				.replace(/^CALL \S+ /, "")
				.split(/\s+/)
				.slice(0, 3)
				.join(" ")}`,
		};
	if (last.role === "tool") return { text: `TOOL RESULT: ${textOf(last.content).slice(0, 300)}` };
	if (/^CHILD /m.test(userText)) return { text: `Child agent here: ${/^CHILD .*$/m.exec(userText)[0].slice(0, 80)}` };
	const tool = /CALL (\S+) (\{.*\})\s*$/m.exec(userText);
	if (tool && tools.length > 0) return { call: { id: `call_${id}`, name: tool[1], args: JSON.parse(tool[2]) } };
	return { text: `Hello from the fake model (${id}).` };
}

/** @returns {Promise<import("./fake-openai-server.d.mts").FakeOpenaiModel>} */
export async function startFakeOpenaiModel() {
	const requests = [];
	let n = 0;
	const server = http.createServer((req, res) => {
		let body = "";
		req.on("data", (c) => (body += c));
		req.on("end", () => {
			if (req.method === "GET" && req.url.endsWith("/models")) {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model", owned_by: "fake" }] }));
				return;
			}
			if (req.method !== "POST" || !req.url.includes("/chat/completions")) {
				res.writeHead(404);
				res.end();
				return;
			}
			let p = {};
			try {
				p = JSON.parse(body || "{}");
			} catch {}
			requests.push(p);
			const id = ++n;
			const { text, call } = decide(p, id);
			const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 40 } };
			const toolCalls = call
				? [{ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } }]
				: undefined;
			const base = { id: `chatcmpl-${id}`, created: 0, model: p.model || "fake-model" };
			if (p.stream !== true) {
				res.writeHead(200, { "content-type": "application/json" });
				const message = { role: "assistant", content: call ? null : text, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
				res.end(
					JSON.stringify({
						...base,
						object: "chat.completion",
						choices: [{ index: 0, message, finish_reason: call ? "tool_calls" : "stop" }],
						usage,
					}),
				);
				return;
			}
			const send = (o) => res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", ...o })}\n\n`);
			res.writeHead(200, { "content-type": "text/event-stream" });
			send({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
			if (toolCalls)
				send({ choices: [{ index: 0, delta: { tool_calls: toolCalls.map((c, index) => ({ index, ...c })) }, finish_reason: null }] });
			else send({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
			send({ choices: [{ index: 0, delta: {}, finish_reason: call ? "tool_calls" : "stop" }] });
			send({ choices: [], usage });
			res.end("data: [DONE]\n\n");
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
